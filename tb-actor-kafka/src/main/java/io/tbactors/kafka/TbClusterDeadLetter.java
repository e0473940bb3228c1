package io.tbactors.kafka;

import java.time.Instant;

/**
 * A record this node wrote to the dead-letter topic, as shown in the health details.
 *
 * @param entity the record's entity, {@code TYPE|id}
 * @param partition the partition it was read from
 * @param offset its offset there
 * @param reason why it was given up
 * @param error the last failure, or what came back
 * @param attempts how many times it was delivered
 * @param writtenAt when Kafka acknowledged the dead letter
 */
public record TbClusterDeadLetter(String entity, int partition, long offset, DeadLetterPublisher.Reason reason, String error, int attempts,
                                  Instant writtenAt) {
}
