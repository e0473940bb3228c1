package io.tbactors.kafka;

/**
 * A send through Kafka was not confirmed within {@code tb.actors.cluster.send-timeout}, after the producer had taken
 * the record: Kafka may still have it, and its entity's owner may still process it. Unlike a send that failed
 * outright, a caller that sends again may cause a duplicate; tell the client the outcome is unknown (for instance
 * 504 rather than 503) or deduplicate on the message's own key.
 */
public class TbClusterSendOutcomeUnknownException extends RuntimeException {

    /**
     * @param message what was sent, and the timeout
     * @param cause what the producer reported, or the timeout
     */
    public TbClusterSendOutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
