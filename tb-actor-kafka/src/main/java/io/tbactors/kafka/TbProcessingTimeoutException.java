package io.tbactors.kafka;

/** A record's actor did not complete it within {@code tb.actors.cluster.processing-timeout}. */
public class TbProcessingTimeoutException extends RuntimeException {

    /** @param message which record, and the timeout */
    public TbProcessingTimeoutException(String message) {
        super(message);
    }
}
