package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.TbActorSystemListener;

/**
 * Wraps the user's listener so that a listener that throws can never escape into a turn (where it would leave the
 * actor scheduled forever) or into a sender: each failure is counted and logged, rate-limited, by the system.
 */
final class ContainedListener implements TbActorSystemListener {

    private final TbActorSystemListener delegate;
    private final ActorRuntime runtime;

    ContainedListener(TbActorSystemListener delegate, ActorRuntime runtime) {
        this.delegate = delegate;
        this.runtime = runtime;
    }

    @Override
    public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
        try {
            delegate.onMessageProcessed(dispatcher, actorType, waitNanos, processNanos, failed);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onMessageProcessed", null, t);
        }
    }

    @Override
    public void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
        try {
            delegate.onInitFailure(actorId, dispatcher, actorType, attempt, cause);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onInitFailure", actorId, t);
        }
    }

    @Override
    public void onActorFailure(TbActorId actorId, String dispatcher, String actorType, ActorFailure.Phase phase,
                               ActorFailure.Outcome outcome, Throwable cause) {
        try {
            delegate.onActorFailure(actorId, dispatcher, actorType, phase, outcome, cause);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onActorFailure", actorId, t);
        }
    }

    @Override
    public void onActorCreated(String dispatcher, String actorType) {
        try {
            delegate.onActorCreated(dispatcher, actorType);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onActorCreated", null, t);
        }
    }

    @Override
    public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
        try {
            delegate.onActorDestroyed(dispatcher, actorType, reason);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onActorDestroyed", null, t);
        }
    }

    @Override
    public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
        try {
            delegate.onMessageNotProcessed(target, msg, reason, afterSystemStop);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onMessageNotProcessed", target, t);
        }
    }

    @Override
    public void onSlowProcessing(String dispatcher, String actorType, long processNanos) {
        try {
            delegate.onSlowProcessing(dispatcher, actorType, processNanos);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onSlowProcessing", null, t);
        }
    }

    @Override
    public void onActorRestarted(String dispatcher, String actorType) {
        try {
            delegate.onActorRestarted(dispatcher, actorType);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onActorRestarted", null, t);
        }
    }

    @Override
    public void onTryTellRefused(String dispatcher, String actorType) {
        try {
            delegate.onTryTellRefused(dispatcher, actorType);
        } catch (Throwable t) {
            runtime.callbackFailed("listener.onTryTellRefused", null, t);
        }
    }

    @Override
    public String toString() {
        return "ContainedListener{" + delegate + '}';
    }
}
