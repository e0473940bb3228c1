package io.tbactors.testkit;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.TbActorSystemListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Records the failures of actors' own code for a test system, and passes every event on to the test's own listener. */
final class FailureRecorder implements TbActorSystemListener {

    private final TbActorSystemListener delegate;
    private final List<RecordedFailure> failures = Collections.synchronizedList(new ArrayList<>());

    FailureRecorder(TbActorSystemListener delegate) {
        this.delegate = delegate;
    }

    List<RecordedFailure> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    @Override
    public void onActorFailure(TbActorId actorId, String dispatcher, String actorType, ActorFailure.Phase phase,
                               ActorFailure.Outcome outcome, Throwable cause) {
        failures.add(new RecordedFailure(actorId, actorType, phase, outcome, cause));
        delegate.onActorFailure(actorId, dispatcher, actorType, phase, outcome, cause);
    }

    @Override
    public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
        delegate.onMessageProcessed(dispatcher, actorType, waitNanos, processNanos, failed);
    }

    @Override
    public void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
        delegate.onInitFailure(actorId, dispatcher, actorType, attempt, cause);
    }

    @Override
    public void onActorCreated(String dispatcher, String actorType) {
        delegate.onActorCreated(dispatcher, actorType);
    }

    @Override
    public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
        delegate.onActorDestroyed(dispatcher, actorType, reason);
    }

    @Override
    public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
        delegate.onMessageNotProcessed(target, msg, reason, afterSystemStop);
    }

    @Override
    public void onSlowProcessing(String dispatcher, String actorType, long processNanos) {
        delegate.onSlowProcessing(dispatcher, actorType, processNanos);
    }

    @Override
    public void onActorRestarted(String dispatcher, String actorType) {
        delegate.onActorRestarted(dispatcher, actorType);
    }

    @Override
    public void onTryTellRefused(String dispatcher, String actorType) {
        delegate.onTryTellRefused(dispatcher, actorType);
    }
}
