package io.tbactors.sample.iot.rule;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.api.TbActorStopReason;
import io.tbactors.sample.iot.stats.IotStats;

/**
 * Follows one message through a rule chain: a node whose output goes to several nodes forks it, a node whose
 * output goes nowhere ends a copy. When the last copy ends, the message counts as processed (or failed, when some
 * copy left on {@code Failure} with no connection for it). A message dropped by a stopping actor counts as lost,
 * once.
 */
public final class TbMsgTracker {

    private final IotStats stats;
    private final AtomicInteger copies = new AtomicInteger(1);
    private final AtomicBoolean failed = new AtomicBoolean();
    private final AtomicBoolean finished = new AtomicBoolean();

    /** @param stats where the outcome is counted */
    public TbMsgTracker(IotStats stats) {
        this.stats = stats;
    }

    /**
     * Records where one copy went next.
     *
     * @param targets how many nodes it was routed to; 0 ends the copy
     */
    public void routed(int targets) {
        if (copies.addAndGet(targets - 1) == 0 && finished.compareAndSet(false, true)) {
            if (failed.get()) {
                stats.ruleEngineFailed();
            } else {
                stats.ruleEngineProcessed();
            }
        }
    }

    /** Marks the message failed: a node failed and no {@code Failure} connection took the message on. */
    public void markFailed() {
        failed.set(true);
    }

    /**
     * Records that a copy will never be processed because its actor stopped.
     *
     * @param reason why
     */
    public void lost(TbActorStopReason reason) {
        if (finished.compareAndSet(false, true)) {
            stats.ruleEngineLost(reason);
        }
    }

    /** @return whether every copy has ended or one was lost */
    public boolean isFinished() {
        return finished.get();
    }

    /** @return whether some copy failed without a {@code Failure} route */
    public boolean isFailed() {
        return failed.get();
    }
}
