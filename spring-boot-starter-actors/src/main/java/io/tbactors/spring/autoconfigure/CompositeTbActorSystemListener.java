package io.tbactors.spring.autoconfigure;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.TbActorSystemListener;
import java.util.List;

/** Passes each event to several listeners, in order. */
final class CompositeTbActorSystemListener implements TbActorSystemListener {

    private final TbActorSystemListener[] listeners;

    private CompositeTbActorSystemListener(List<TbActorSystemListener> listeners) {
        this.listeners = listeners.toArray(new TbActorSystemListener[0]);
    }

    /**
     * @param listeners the listeners, in order
     * @return {@link TbActorSystemListener#NOOP} for none, the listener itself for one, a composite otherwise
     */
    static TbActorSystemListener of(List<TbActorSystemListener> listeners) {
        if (listeners.isEmpty()) {
            return TbActorSystemListener.NOOP;
        }
        return listeners.size() == 1 ? listeners.get(0) : new CompositeTbActorSystemListener(listeners);
    }

    @Override
    public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
        for (TbActorSystemListener listener : listeners) {
            listener.onMessageProcessed(dispatcher, actorType, waitNanos, processNanos, failed);
        }
    }

    @Override
    public void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
        for (TbActorSystemListener listener : listeners) {
            listener.onInitFailure(actorId, dispatcher, actorType, attempt, cause);
        }
    }

    @Override
    public void onActorFailure(TbActorId actorId, String dispatcher, String actorType, ActorFailure.Phase phase,
                               ActorFailure.Outcome outcome, Throwable cause) {
        for (TbActorSystemListener listener : listeners) {
            listener.onActorFailure(actorId, dispatcher, actorType, phase, outcome, cause);
        }
    }

    @Override
    public void onActorCreated(String dispatcher, String actorType) {
        for (TbActorSystemListener listener : listeners) {
            listener.onActorCreated(dispatcher, actorType);
        }
    }

    @Override
    public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
        for (TbActorSystemListener listener : listeners) {
            listener.onActorDestroyed(dispatcher, actorType, reason);
        }
    }

    @Override
    public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
        for (TbActorSystemListener listener : listeners) {
            listener.onMessageNotProcessed(target, msg, reason, afterSystemStop);
        }
    }

    @Override
    public void onSlowProcessing(String dispatcher, String actorType, long processNanos) {
        for (TbActorSystemListener listener : listeners) {
            listener.onSlowProcessing(dispatcher, actorType, processNanos);
        }
    }

    @Override
    public void onActorRestarted(String dispatcher, String actorType) {
        for (TbActorSystemListener listener : listeners) {
            listener.onActorRestarted(dispatcher, actorType);
        }
    }

    @Override
    public void onTryTellRefused(String dispatcher, String actorType) {
        for (TbActorSystemListener listener : listeners) {
            listener.onTryTellRefused(dispatcher, actorType);
        }
    }
}
