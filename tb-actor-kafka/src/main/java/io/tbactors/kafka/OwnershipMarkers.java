package io.tbactors.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.support.SendResult;

/**
 * The records that start a node's ownership of a partition. A node that takes a partition first appends one to it;
 * the record's offset is the ownership's {@linkplain TbOwnershipEpoch#getFencingToken() fencing token}. Offsets only
 * grow in a partition, whatever happens to the consumer group (a group deleted once its offsets expired counts its
 * generations from the start again), so a later owner's token is always the greater. The owner reads its own
 * marker, and older ones, and skips them; they are committed like any record.
 */
@Slf4j
final class OwnershipMarkers {

    private final String topic;
    private final KafkaTemplate<String, byte[]> template;
    private final Duration timeout;

    /**
     * @param topic the cluster's topic
     * @param producers where the markers are written from; not closed here
     * @param timeout how long to wait for Kafka to acknowledge the markers of one assignment
     */
    OwnershipMarkers(String topic, ProducerFactory<String, byte[]> producers, Duration timeout) {
        this.topic = topic;
        this.template = new KafkaTemplate<>(producers);
        this.timeout = timeout;
    }

    /**
     * @param record a record of the cluster's topic
     * @return whether it is a marker, to skip
     */
    static boolean isMarker(ConsumerRecord<?, ?> record) {
        return record.headers().lastHeader(KafkaClusterMember.OWNERSHIP_MARKER_HEADER) != null;
    }

    /**
     * Appends a marker to each partition and waits, up to the timeout in all, for Kafka to acknowledge them.
     *
     * @param partitions the partitions this node takes
     * @param node this node's name
     * @param groupGeneration the consumer group's generation of the assignment, for whoever reads the topic
     * @return the offset of each partition's marker; a partition whose marker Kafka did not acknowledge in time is
     *     missing
     */
    Map<Integer, Long> write(Collection<Integer> partitions, String node, int groupGeneration) {
        Map<Integer, CompletableFuture<SendResult<String, byte[]>>> sent = new LinkedHashMap<>();
        byte[] value = ("owner " + node + ", group generation " + groupGeneration).getBytes(StandardCharsets.UTF_8);
        for (Integer partition : partitions) {
            ProducerRecord<String, byte[]> marker = new ProducerRecord<>(topic, partition, null, value);
            marker.headers().add(KafkaClusterMember.OWNERSHIP_MARKER_HEADER, node.getBytes(StandardCharsets.UTF_8));
            try {
                sent.put(partition, template.send(marker));
            } catch (RuntimeException e) {
                sent.put(partition, CompletableFuture.failedFuture(e));
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, Long> offsets = new LinkedHashMap<>();
        for (Map.Entry<Integer, CompletableFuture<SendResult<String, byte[]>>> marker : sent.entrySet()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                offsets.put(marker.getKey(), marker.getValue().get(left, TimeUnit.NANOSECONDS).getRecordMetadata().offset());
            } catch (InterruptedException e) {
                // the rest are not waited for: their partitions are not taken, and tried again later
                Thread.currentThread().interrupt();
                log.warn("[{}] Interrupted while writing the ownership markers of partitions {}", topic, sent.keySet());
                break;
            } catch (ExecutionException | TimeoutException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                log.warn("[{}-{}] Kafka did not acknowledge the ownership marker within {}: {}", topic, marker.getKey(), timeout,
                        cause.toString());
            }
        }
        return offsets;
    }
}
