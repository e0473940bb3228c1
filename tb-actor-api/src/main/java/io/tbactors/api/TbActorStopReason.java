package io.tbactors.api;

/**
 * Why an actor stopped, or why a message told to it will never be processed.
 */
public enum TbActorStopReason {

    /** The actor could not be initialised within its allowed attempts. */
    INIT_FAILED,

    /** The actor (or the whole actor system) was stopped. */
    STOPPED,

    /** The actor was stopped after having no message for its idle period; it is re-created on demand. */
    IDLE,

    /** The message was refused because the actor's bounded mailbox was full. */
    MAILBOX_FULL,

    /** The message was removed from a full bounded mailbox to make room for a newer one. */
    DROPPED_OLDEST,

    /**
     * Given to {@link TbActor#destroy} when the actor is destroyed to be replaced by a fresh instance after a
     * failure ({@link ProcessFailureStrategy#restart()}); its waiting messages are kept for the new instance.
     */
    RESTARTED
}
