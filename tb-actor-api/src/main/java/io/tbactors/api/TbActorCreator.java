package io.tbactors.api;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Creates an actor and names its id. The actor system calls {@link #createActorId()} first and calls
 * {@link #createActor()} at most once per live id, even when several threads ask for the same id.
 */
public interface TbActorCreator {

    /** @return the id of the actor this creator makes */
    TbActorId createActorId();

    /** @return a new actor instance */
    TbActor createActor();

    /**
     * @return the bound of this actor's normal-priority mailbox, or null to use its dispatcher's (unbounded by default)
     */
    default TbMailboxBound getMailboxBound() {
        return null;
    }

    /**
     * A creator made of an id and a constructor call, so an actor needs no creator class of its own.
     *
     * @param actorId the actor's id; not null
     * @param actor makes a new actor each time it is called; not null
     * @return the creator
     */
    static TbActorCreator of(TbActorId actorId, Supplier<? extends TbActor> actor) {
        Objects.requireNonNull(actorId, "actorId must not be null");
        Objects.requireNonNull(actor, "actor supplier must not be null");
        return new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                return actorId;
            }

            @Override
            public TbActor createActor() {
                return actor.get();
            }

            @Override
            public String toString() {
                return "TbActorCreator{" + actorId + '}';
            }
        };
    }
}
