package io.tbactors.core.observe;

import io.tbactors.api.TbActorStopReason;

/**
 * Why a message became a dead letter.
 */
public enum DeadLetterReason {

    /** No actor had the id (the sender also got a {@code TbActorNotRegisteredException}). */
    NOT_REGISTERED,
    /** The actor stopped, or was stopping, before processing it. */
    STOPPED,
    /** The actor failed to initialise. */
    INIT_FAILED,
    /** The actor was passivated for being idle. */
    IDLE,
    /** The actor's bounded mailbox was full. */
    MAILBOX_FULL,
    /** It was the oldest message of a full mailbox that dropped its oldest. */
    DROPPED_OLDEST,
    /** The actor system had stopped. */
    SYSTEM_STOPPED;

    /**
     * @param reason a stop reason
     * @param afterSystemStop whether the system had stopped
     * @return the matching dead-letter reason
     */
    public static DeadLetterReason of(TbActorStopReason reason, boolean afterSystemStop) {
        if (afterSystemStop) {
            return SYSTEM_STOPPED;
        }
        return switch (reason) {
            case INIT_FAILED -> INIT_FAILED;
            case IDLE -> IDLE;
            case MAILBOX_FULL -> MAILBOX_FULL;
            case DROPPED_OLDEST -> DROPPED_OLDEST;
            default -> STOPPED;
        };
    }
}
