package io.tbactors.testkit;

import io.tbactors.api.TbActorId;
import io.tbactors.core.observe.ActorFailure;

/**
 * A failure of an actor's {@code init} or {@code process} seen by a {@link TbTestActorSystem}, with its exception.
 *
 * @param actorId the actor
 * @param actorType the actor's class name
 * @param phase which callback failed
 * @param outcome what the runtime did about it
 * @param cause what the callback threw
 */
public record RecordedFailure(TbActorId actorId, String actorType, ActorFailure.Phase phase, ActorFailure.Outcome outcome,
                              Throwable cause) {

    @Override
    public String toString() {
        return actorType + " " + actorId + " failed in " + phase.tag() + " (" + outcome.tag() + "): " + cause;
    }
}
