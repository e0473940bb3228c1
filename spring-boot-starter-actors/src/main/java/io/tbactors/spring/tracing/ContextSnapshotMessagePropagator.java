package io.tbactors.spring.tracing;

import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.tbactors.core.observe.TbMessageContextPropagator;

/**
 * Carries every thread local registered with Micrometer's context-propagation library (the current trace and
 * observation, MDC when registered, and the like) from the thread that tells a message to the thread that processes
 * it. Enabled by {@code tb.actors.tracing.enabled=true}.
 */
public class ContextSnapshotMessagePropagator implements TbMessageContextPropagator {

    private final ContextSnapshotFactory snapshots;

    /** Uses a factory that also clears, while a message is processed, the thread locals its teller did not have. */
    public ContextSnapshotMessagePropagator() {
        this(ContextSnapshotFactory.builder().clearMissing(true).build());
    }

    /** @param snapshots the factory that captures the teller's thread locals */
    public ContextSnapshotMessagePropagator(ContextSnapshotFactory snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public Object capture() {
        return snapshots.captureAll();
    }

    @Override
    public Scope restore(Object context) {
        ContextSnapshot.Scope scope = ((ContextSnapshot) context).setThreadLocals();
        return scope::close;
    }
}
