package io.tbactors.api;

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
}
