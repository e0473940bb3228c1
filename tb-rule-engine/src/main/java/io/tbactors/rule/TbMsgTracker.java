package io.tbactors.rule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import io.tbactors.api.TbActorStopReason;

/**
 * Follows one message through a rule chain: a node whose output goes to several nodes forks it, a node whose
 * output goes nowhere ends a copy. When the last copy ends, the message counts as processed (or failed, when some
 * copy left on {@code Failure} with no connection for it) and its callback hears so. A message dropped by a
 * stopping actor counts as lost, once, and its callback hears that instead.
 *
 * <p>Every message in a chain has one, alive until its last copy ends (for a save, until its batch commits), so its
 * state is three fields of this one object, changed through {@link VarHandle}s, not three atomic objects beside it.
 */
public final class TbMsgTracker {

    private final RuleEngineListener listener;
    private final TbMsgCallback callback;
    private static final VarHandle COPIES;
    private static final VarHandle FAILURE;
    private static final VarHandle FINISHED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COPIES = lookup.findVarHandle(TbMsgTracker.class, "copies", int.class);
            FAILURE = lookup.findVarHandle(TbMsgTracker.class, "failure", RuleChainFailureException.class);
            FINISHED = lookup.findVarHandle(TbMsgTracker.class, "finished", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int copies = 1;
    private volatile RuleChainFailureException failure;
    private volatile boolean finished;

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
        if ((int) COPIES.getAndAdd(this, targets - 1) + targets - 1 == 0 && FINISHED.compareAndSet(this, false, true)) {
            RuleChainFailureException failed = failure;
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
        if (failure == null) {
            FAILURE.compareAndSet(this, null, new RuleChainFailureException(reason, cause));
        }
    }

    /**
     * Records that a copy will never be processed because its actor stopped.
     *
     * @param reason why
     */
    public void lost(TbActorStopReason reason) {
        if (FINISHED.compareAndSet(this, false, true)) {
            listener.msgLost(reason);
            callback.onFailure(new MessageNotAcceptedException(reason));
        }
    }

    /** @return whether every copy has ended or one was lost */
    public boolean isFinished() {
        return finished;
    }

    /** @return whether some copy failed without a {@code Failure} route */
    public boolean isFailed() {
        return failure != null;
    }
}
