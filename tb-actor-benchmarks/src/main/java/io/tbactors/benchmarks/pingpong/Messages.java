package io.tbactors.benchmarks.pingpong;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.benchmarks.support.LatencyRecorder;

/** The ping-pong messages; shared instances, so a round trip allocates nothing but what the runtime needs. */
final class Messages {

    private Messages() {
    }

    /**
     * Tells the requesting party to run a series of round trips.
     *
     * @param count how many round trips
     * @param recorder where each one's time goes
     */
    record Start(int count, LatencyRecorder recorder) implements TbActorMsg {
    }

    /**
     * A request on our runtime, which has no implicit sender: it names whom to answer.
     *
     * @param replyTo the requesting actor
     */
    record Request(TbActorRef replyTo) implements TbActorMsg {
    }

    /** Request and response where the transport knows the sender (Pekko), and our response. */
    enum Bounce implements TbActorMsg {
        /** The request. */
        PING,
        /** The response. */
        PONG
    }
}
