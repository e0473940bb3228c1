package io.tbactors.kafka;

import java.util.concurrent.TimeoutException;

/**
 * A request to an entity's owner ({@link TbClusterRouter#request}) had no answer within its timeout: the owner may
 * still process the message (it is in Kafka, or in a local mailbox), or may have processed it and its answer is late
 * or lost. Tell the caller the outcome is unknown.
 */
public class TbClusterReplyTimeoutException extends TimeoutException {

    /** @param message the entity, and the timeout */
    public TbClusterReplyTimeoutException(String message) {
        super(message);
    }
}
