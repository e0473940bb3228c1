package io.tbactors.rule;

import io.tbactors.api.TbActorStopReason;

/**
 * A message will not be processed: an actor on its way stopped (the application is shutting down, or an actor
 * could not start), or a bounded mailbox on its way was full.
 */
public class MessageNotAcceptedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final TbActorStopReason reason;

    /** @param reason why the actor stopped */
    public MessageNotAcceptedException(TbActorStopReason reason) {
        super(reason == TbActorStopReason.MAILBOX_FULL
                ? "The message was not accepted: the device's mailbox is full (MAILBOX_FULL)"
                : "The message was not accepted: its actor stopped (" + reason + ")");
        this.reason = reason;
    }

    /** @return why the actor stopped */
    public TbActorStopReason getReason() {
        return reason;
    }

    /** @return whether the message was refused by a full mailbox: the sender should slow down and retry */
    public boolean isMailboxFull() {
        return reason == TbActorStopReason.MAILBOX_FULL;
    }
}
