package io.tbactors.api;

/**
 * A handle to send messages to one actor. Telling never blocks and never runs the actor on the caller's thread.
 */
public interface TbActorRef {

    /** @return the id of the actor this reference points to */
    TbActorId getActorId();

    /**
     * Queues a message with normal priority.
     *
     * @param actorMsg the message; must not be null
     */
    void tell(TbActorMsg actorMsg);

    /**
     * Queues a message that is processed before every normal-priority message already waiting.
     *
     * @param actorMsg the message; must not be null
     */
    void tellWithHighPriority(TbActorMsg actorMsg);

    /**
     * Queues a message with normal priority unless the actor's bounded mailbox is full or the actor is stopping.
     * Unlike {@link #tell}, a refused message is not told {@link TbActorMsg#onTbActorStopped}: it stays with the
     * caller, who can slow down and try again.
     *
     * @param actorMsg the message; must not be null
     * @return whether the message was queued
     */
    default boolean tryTell(TbActorMsg actorMsg) {
        tell(actorMsg);
        return true;
    }
}
