package io.tbactors.rule;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.tbactors.api.TbActorStopReason;

/**
 * Follows one message through a rule chain: a node whose output goes to several nodes forks it, a node whose
 * output goes nowhere ends a copy. When the last copy ends, the message counts as processed (or failed, when some
 * copy left on {@code Failure} with no connection for it) and its callback hears so. A message dropped by a
 * stopping actor counts as lost, once, and its callback hears that instead.
 */
public final class TbMsgTracker {

    private final RuleEngineListener listener;
    private final TbMsgCallback callback;
    private final AtomicInteger copies = new AtomicInteger(1);
    private final AtomicReference<RuleChainFailureException> failure = new AtomicReference<>();
    private final AtomicBoolean finished = new AtomicBoolean();

    /**
     * @param listener where the outcome is counted
     * @param callback told the outcome once
     */
    public TbMsgTracker(RuleEngineListener listener, TbMsgCallback callback) {
        this.listener = listener;
        this.callback = callback;
    }

    /**
     * Records where one copy went next.
     *
     * @param targets how many nodes it was routed to; 0 ends the copy
     */
    public void routed(int targets) {
        if (copies.addAndGet(targets - 1) == 0 && finished.compareAndSet(false, true)) {
            RuleChainFailureException failed = failure.get();
            if (failed == null) {
                listener.msgProcessed();
                callback.onSuccess();
            } else {
                listener.msgFailed();
                callback.onFailure(failed);
            }
        }
    }

    /**
     * Marks the message failed: a node failed and no {@code Failure} connection took the message on. The first
     * reason is kept.
     *
     * @param reason which node failed and why
     */
    public void markFailed(String reason) {
        markFailed(reason, null);
    }

    /**
     * Marks the message failed, keeping the node's error as the cause (the device API answers by it, e.g. 503 for
     * a full storage queue). The first failure is kept.
     *
     * @param reason which node failed and why
     * @param cause the node's error, or null
     */
    public void markFailed(String reason, Throwable cause) {
        if (failure.get() == null) {
            failure.compareAndSet(null, new RuleChainFailureException(reason, cause));
        }
    }

    /**
     * Records that a copy will never be processed because its actor stopped.
     *
     * @param reason why
     */
    public void lost(TbActorStopReason reason) {
        if (finished.compareAndSet(false, true)) {
            listener.msgLost(reason);
            callback.onFailure(new MessageNotAcceptedException(reason));
        }
    }

    /** @return whether every copy has ended or one was lost */
    public boolean isFinished() {
        return finished.get();
    }

    /** @return whether some copy failed without a {@code Failure} route */
    public boolean isFailed() {
        return failure.get() != null;
    }
}
