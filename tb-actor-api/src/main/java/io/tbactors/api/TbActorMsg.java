package io.tbactors.api;

/**
 * A message that can be told to an actor.
 *
 * <p>Unlike ThingsBoard there is no message type enum: actors dispatch on the Java type of the message.
 */
public interface TbActorMsg {

    /**
     * Called exactly once for a message that will never be processed: its actor stopped, failed to
     * initialise, refused it, or the actor system shut down before it was delivered. Implementations
     * typically complete a pending callback here, so that no caller waits forever.
     *
     * @param reason why the message will not be processed
     */
    default void onTbActorStopped(TbActorStopReason reason) {
    }
}
