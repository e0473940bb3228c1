package io.tbactors.kafka;

import io.tbactors.api.TbActorStopReason;

/** A message delivered locally was not processed: its actor stopped, refused it or reported a failure. */
public class TbClusterDeliveryException extends RuntimeException {

    private final transient TbActorStopReason reason;

    /**
     * @param message what happened
     * @param reason why the message was not processed, or null when processing failed
     * @param cause the processing failure, or null
     */
    public TbClusterDeliveryException(String message, TbActorStopReason reason, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** @return why the message was not processed, or null when its processing failed */
    public TbActorStopReason getReason() {
        return reason;
    }
}
