package io.tbactors.benchmarks.support;

import io.tbactors.api.TbActorMsg;

/** The one message the throughput benchmarks send, on every runtime: shared, so sending allocates no message. */
public enum Tick implements TbActorMsg {
    /** The only instance. */
    INSTANCE
}
