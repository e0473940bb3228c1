package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.core.RateLimitedWarning;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.spring.ActorSystemContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The record side of a cluster member: decodes each record polled from an owned partition and queues it on its
 * entity's lane, where a {@link RecordDelivery} takes it through the actors, redelivery and the dead-letter topic.
 * The member's consumer loop calls {@link #hand} and keeps partitions, commits and fencing to itself.
 */
@Slf4j
final class RecordDispatch {

    private final KafkaClusterMember member;
    private final TbActorMsgCodec codec;
    private final EntityDeliveries deliveries;
    private final DeadLetterPublisher deadLetters;
    private final ClusterMemberStats stats;
    private final ActorSystemContext actorSystemContext;
    private final Duration deadLetterRetryDelay;
    private final RateLimitedWarning undecodableLog = new RateLimitedWarning(Duration.ofSeconds(1));
    private final RateLimitedWarning deadLetterLog = new RateLimitedWarning(Duration.ofSeconds(1));

    /**
     * @param member whose epochs, running state and reply channel the deliveries follow
     * @param codec decodes the records
     * @param deliveries delivers to the root actor and redelivers what comes back
     * @param deadLetters writes the records given up to the dead-letter topic
     * @param stats where undecodable and dead-lettered records are counted
     * @param actorSystemContext whose scheduler retries a failed dead-letter write
     * @param deadLetterRetryDelay delay before a failed dead-letter write is tried again
     */
    RecordDispatch(KafkaClusterMember member, TbActorMsgCodec codec, EntityDeliveries deliveries, DeadLetterPublisher deadLetters,
                   ClusterMemberStats stats, ActorSystemContext actorSystemContext, Duration deadLetterRetryDelay) {
        this.member = member;
        this.codec = codec;
        this.deliveries = deliveries;
        this.deadLetters = deadLetters;
        this.stats = stats;
        this.actorSystemContext = actorSystemContext;
        this.deadLetterRetryDelay = deadLetterRetryDelay;
    }

    /**
     * Decodes the record and queues it on its entity's lane; an undecodable one is skipped, counted and logged.
     *
     * @param record a record of an owned partition
     * @param tracker the partition's tracker
     */
    void hand(ConsumerRecord<String, byte[]> record, PartitionTracker tracker) {
        int generation = tracker.generation();
        if (!tracker.isActive(generation)) {
            return;
        }
        if (OwnershipMarkers.isMarker(record)) {
            // where an ownership began, this one or an earlier: nothing to deliver
            tracker.skipped(record.offset());
            return;
        }
        TbActorMsg msg;
        UUID entityId;
        String entityType;
        try {
            entityId = UUID.fromString(record.key());
            entityType = requiredHeader(record, KafkaClusterMember.ENTITY_TYPE_HEADER);
            msg = codec.decode(requiredHeader(record, KafkaClusterMember.TYPE_HEADER), record.value());
        } catch (RuntimeException e) {
            stats.undecodable.increment();
            tracker.skipped(record.offset());
            undecodableLog.warn(suppressed -> log.warn("[{}-{}] Skipped undecodable record @{} ({} more since the last report): {}",
                    record.topic(), record.partition(), record.offset(), suppressed, e.toString()));
            return;
        }
        tracker.handed(record.offset());
        EntityLanes lanes = tracker.lanes();
        String entity = entityType + "|" + entityId;
        lanes.submit(entity, new RecordDelivery(this, record, entityType, entityId, msg, tracker, generation, lanes, entity));
    }

    private static String requiredHeader(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        if (header == null || header.value() == null) {
            throw new IllegalArgumentException("the record has no '" + name + "' header");
        }
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    boolean isCurrent(PartitionTracker tracker, int generation) {
        return member.isCurrentEpoch(tracker, generation, false);
    }

    boolean isRunning() {
        return member.isRunning();
    }

    /** Tells the requester, when the record carries a request, that it was processed (no reason) or given up. */
    void answer(ConsumerRecord<String, byte[]> record, String failureReason, String failureError) {
        KafkaTbNodeChannel channel = member.replies();
        if (channel != null) {
            channel.answer(record, failureReason, failureError);
        }
    }

    /** Runs a dead-letter write again after the retry delay. */
    void schedule(Runnable retry) {
        actorSystemContext.getScheduler().schedule(retry, deadLetterRetryDelay.toMillis(), TimeUnit.MILLISECONDS);
    }

    EntityDeliveries deliveries() {
        return deliveries;
    }

    DeadLetterPublisher deadLetters() {
        return deadLetters;
    }

    ClusterMemberStats stats() {
        return stats;
    }

    RateLimitedWarning deadLetterLog() {
        return deadLetterLog;
    }

    Duration deadLetterRetryDelay() {
        return deadLetterRetryDelay;
    }
}
