package io.tbactors.kafka;

/**
 * The owner of an entity gave up a requested message ({@link TbClusterRouter#request}): after its redeliveries the
 * record went to the dead-letter topic. The message was not processed, and will not be.
 */
public class TbClusterRemoteFailureException extends RuntimeException {

    private final String reason;
    private final String error;

    /**
     * @param message what was given up, where
     * @param reason the dead letter's reason: {@code FAILED}, {@code TIMED_OUT} or {@code NOT_PROCESSED}
     * @param error the last failure on the owner, as text
     */
    public TbClusterRemoteFailureException(String message, String reason, String error) {
        super(message);
        this.reason = reason;
        this.error = error;
    }

    /** @return the dead letter's reason: {@code FAILED}, {@code TIMED_OUT} or {@code NOT_PROCESSED} */
    public String getReason() {
        return reason;
    }

    /** @return the last failure on the owner (class and message), or what came back */
    public String getError() {
        return error;
    }
}
