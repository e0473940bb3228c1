package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.kafka.codec.TbEncodedMsg;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;

/**
 * The router of a cluster member: a message for an entity whose partition this node owns (and has read up to its
 * assignment) is told locally; any other goes to Kafka, keyed by the entity id, on the entity's partition.
 *
 * <p>A send through Kafka takes at most {@code send-timeout}, blocking included; one the producer took but Kafka did
 * not confirm in time fails with {@link TbClusterSendOutcomeUnknownException}: it may still land.
 *
 * <p>A local message that comes back unprocessed because the partition was given up meanwhile is sent through Kafka
 * to the new owner rather than failed. The router owns the cluster's producer, closed with it.
 */
public class KafkaTbClusterRouter implements TbClusterRouter, DisposableBean {

    private final TbClusterProperties properties;
    private final KafkaClusterMember member;
    private final DefaultKafkaProducerFactory<String, byte[]> producerFactory;
    private final KafkaTemplate<String, byte[]> kafkaTemplate;
    private final TbActorMsgCodec codec;
    private final EntityDeliveries deliveries;
    private final KafkaTbNodeChannel channel;
    private final LongAdder sentLocally = new LongAdder();
    private final LongAdder sentRemotely = new LongAdder();

    KafkaTbClusterRouter(TbClusterProperties properties, KafkaClusterMember member,
                         DefaultKafkaProducerFactory<String, byte[]> producerFactory, TbActorMsgCodec codec,
                         EntityDeliveries deliveries, KafkaTbNodeChannel channel) {
        this.properties = properties;
        this.channel = channel;
        this.member = member;
        this.producerFactory = producerFactory;
        this.kafkaTemplate = new KafkaTemplate<>(producerFactory);
        this.codec = codec;
        this.deliveries = deliveries;
    }

    @Override
    public CompletableFuture<Void> send(String entityType, UUID entityId, TbActorMsg msg) {
        return route(entityType, entityId, msg, null);
    }

    @Override
    public CompletableFuture<Void> request(String entityType, UUID entityId, TbActorMsg msg, Duration timeout) {
        TbClusterReplies.requirePositive(timeout);
        return route(entityType, entityId, msg, timeout);
    }

    /** @param replyTimeout null for a send, or how long a request waits for the owner's answer */
    private CompletableFuture<Void> route(String entityType, UUID entityId, TbActorMsg msg, Duration replyTimeout) {
        EntityDeliveries.requireValid(entityType, entityId, msg);
        codec.checkEncodable(msg.getClass());
        int count = partitionCount();
        if (count == 0) {
            return CompletableFuture.failedFuture(new IllegalStateException("The message for " + entityType + "|" + entityId
                    + " was not sent: this node has not reached Kafka yet (" + TbClusterProperties.PREFIX + ".start-without-kafka)"));
        }
        int partition = EntityPartitioner.partition(entityId, count);
        PartitionTracker tracker = properties.getLocalDelivery() == TbClusterProperties.LocalDelivery.OWNED
                ? member.tracker(partition) : null;
        if (tracker == null) {
            return sendRemotely(entityType, entityId, msg, partition, null, replyTimeout);
        }
        if (tracker.route() == PartitionTracker.Route.KAFKA) {
            return sendRemotely(entityType, entityId, msg, partition, tracker, replyTimeout);
        }
        sentLocally.increment();
        int generation = tracker.generation();
        TbOwnershipEpoch epoch = new TbOwnershipEpoch(partition, generation, tracker.fencingToken(generation),
                () -> member.isCurrentEpoch(tracker, generation, true));
        CompletableFuture<Void> processed = deliveries.deliverLocally(entityType, entityId, msg, partition, epoch,
                tracker::releaseLocal,
                reason -> resendRemotely(entityType, entityId, msg, partition, tracker, reason, replyTimeout));
        return replyTimeout == null ? processed : TbClusterReplies.bounded(processed, entityType + "|" + entityId, replyTimeout);
    }

    private CompletableFuture<Void> resendRemotely(String entityType, UUID entityId, TbActorMsg msg, int partition,
                                                   PartitionTracker tracker, TbActorStopReason reason, Duration replyTimeout) {
        if (tracker.route() == PartitionTracker.Route.LOCAL) {
            // still this node's: every delivery came back for a reason that sending through Kafka would not change
            tracker.releaseLocal();
            return CompletableFuture.failedFuture(new TbClusterDeliveryException("The message for " + entityType + "|" + entityId
                    + " was not processed by this node, which owns its partition: " + reason, reason, null));
        }
        return sendRemotely(entityType, entityId, msg, partition, tracker, replyTimeout);
    }

    @Override
    public boolean isLocal(UUID entityId) {
        int count = partitionCount();
        if (count == 0) {
            return false;
        }
        PartitionTracker tracker = member.tracker(EntityPartitioner.partition(entityId, count));
        return properties.getLocalDelivery() == TbClusterProperties.LocalDelivery.OWNED && tracker != null
                && tracker.state() == PartitionTracker.State.OWNED;
    }

    /**
     * @param tracker when not null, the partition's tracker, told the record's offset once Kafka answers (it holds the
     *     switch to local sends back until then); its reservation is taken already
     * @param replyTimeout when not null, the record asks its owner to answer once processed, and the future waits for
     *     that answer up to this long
     */
    private CompletableFuture<Void> sendRemotely(String entityType, UUID entityId, TbActorMsg msg, int partition,
                                                 PartitionTracker tracker, Duration replyTimeout) {
        TbEncodedMsg encoded;
        try {
            encoded = codec.encode(msg);
        } catch (RuntimeException e) {
            if (tracker != null) {
                tracker.remoteAnswered(-1);
            }
            throw e;
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(properties.getTopic(), partition,
                EntityPartitioner.key(entityId), encoded.payload());
        record.headers().add(KafkaClusterMember.TYPE_HEADER, encoded.type().getBytes(StandardCharsets.UTF_8));
        record.headers().add(KafkaClusterMember.ENTITY_TYPE_HEADER, entityType.getBytes(StandardCharsets.UTF_8));
        KafkaTbNodeChannel.Request request = null;
        if (replyTimeout != null) {
            request = channel.expectReply(entityType + "|" + entityId, replyTimeout);
            record.headers().add(KafkaTbNodeChannel.REPLY_TO_HEADER, channel.getNodeId().getBytes(StandardCharsets.UTF_8));
            record.headers().add(KafkaTbNodeChannel.REQUEST_ID_HEADER, request.id().getBytes(StandardCharsets.UTF_8));
        }
        sentRemotely.increment();
        long started = System.nanoTime();
        CompletableFuture<SendResult<String, byte[]>> sent;
        try {
            sent = kafkaTemplate.send(record);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        if (!sent.isDone()) {
            // the producer took the record: a failure from now on may hide a write that still lands
            sent = boundedBySendTimeout(sent, entityType, entityId, started);
        }
        if (tracker != null) {
            sent = sent.whenComplete((result, error) ->
                    tracker.remoteAnswered(error == null ? result.getRecordMetadata().offset() : -1));
        }
        if (request == null) {
            return sent.thenApply(result -> null);
        }
        KafkaTbNodeChannel.Request waiting = request;
        sent.whenComplete((result, error) -> {
            if (error != null) {
                channel.forget(waiting.id());
                waiting.notSent(error);
            }
        });
        return waiting.answer();
    }

    private CompletableFuture<SendResult<String, byte[]>> boundedBySendTimeout(CompletableFuture<SendResult<String, byte[]>> sent,
                                                                          String entityType, UUID entityId, long started) {
        long left = properties.getSendTimeout().toNanos() - (System.nanoTime() - started);
        CompletableFuture<SendResult<String, byte[]>> bounded = new CompletableFuture<>();
        sent.orTimeout(Math.max(1, left), TimeUnit.NANOSECONDS).whenComplete((result, error) -> {
            if (error == null) {
                bounded.complete(result);
            } else if (mayStillLand(error)) {
                bounded.completeExceptionally(new TbClusterSendOutcomeUnknownException("Kafka did not confirm the message for " + entityType
                        + "|" + entityId + " within " + properties.getSendTimeout() + "; it may still be written and processed",
                        error));
            } else {
                bounded.completeExceptionally(error);
            }
        });
        return bounded;
    }

    private static boolean mayStillLand(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException || cause instanceof RetriableException) {
                return true;
            }
        }
        return false;
    }

    /** @return the topic's partition count, or 0 while a node started without Kafka has not reached it */
    private int partitionCount() {
        int count = member.getPartitionCount();
        if (count > 0 || properties.isStartWithoutKafka()) {
            return count;
        }
        return member.prepareTopic();
    }

    @Override
    public void destroy() {
        producerFactory.destroy();
    }

    /** @return messages told locally because this node owned the entity's partition */
    public long getSentLocallyCount() {
        return sentLocally.sum();
    }

    /** @return messages sent through Kafka */
    public long getSentRemotelyCount() {
        return sentRemotely.sum();
    }
}
