package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.kafka.DeadLetterPublisher;
import io.tbactors.kafka.EntityPartitioner;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.actuate.DeadLettersEndpoint;
import io.tbactors.kafka.metrics.TbClusterMeterBinder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Records whose processing fails, never completes or is refused by a full mailbox, on one node whose every message
 * goes through Kafka ({@code local-delivery=never}): each record stays at the head of its device until it is
 * processed or, after its retries, written to the dead-letter topic; only then do the device's later records go on
 * and is its offset committed.
 */
class RecordFailureIntegrationTest extends BrokerPerClass {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String DEVICE = ClusterTestApp.DEVICE;
    private static final String[] THROUGH_KAFKA = {
        "tb.actors.cluster.local-delivery=never",
        "tb.actors.cluster.redelivery-delay=20ms",
        "tb.actors.cluster.max-redelivery-delay=200ms"
    };


    private static ClusterNode startAlone(String topic, ReadingStore store, String... properties) {
        List<String> all = new ArrayList<>(List.of(THROUGH_KAFKA));
        all.addAll(List.of(properties));
        ClusterNode node = ClusterNode.start("A", broker.getBrokersAsString(), topic, store, all.toArray(String[]::new));
        await().atMost(WAIT).until(() -> node.isActive() && node.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
        return node;
    }

    private static void sendInOrder(ClusterNode node, List<UUID> devices, int readings) throws Exception {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int seq = 1; seq <= readings; seq++) {
            for (UUID device : devices) {
                sent.add(node.router().send(DEVICE, device, new Reading(seq)));
            }
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    /** @return the offset of the device's first reading: behind the node's ownership marker */
    private static long sendThreeReadings(ClusterNode node, TopicPartition tp, UUID device) throws Exception {
        long first = TestBrokers.endOffset(broker, tp);
        sendInOrder(node, List.of(device), 3);
        return first;
    }

    /** Waits for the partition's commit to reach the offset, then checks that it stays there, and the check holds, for a second. */
    private void awaitCommitHeldAt(TopicPartition tp, long offset, String why, ThrowingRunnable check) {
        await().atMost(WAIT).until(() -> TestBrokers.committedOffset(broker, tp.topic(), tp) == offset);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(TestBrokers.committedOffset(broker, tp.topic(), tp)).as(why).isEqualTo(offset);
            check.run();
        });
    }

    private static List<Integer> storedSeqs(ReadingStore store, UUID device) {
        return store.readings(device).stream().map(ReadingStore.Processed::seq).toList();
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }

    @Test
    void aReadingWhoseActorKeepsFailingIsDeadLetteredAfterItsRetriesAndTheDevicesLaterReadingsWaitForIt() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "failing";
        try (ClusterNode node = startAlone(topic, store, "test.failing-seq=4", "tb.actors.cluster.max-redeliveries=2")) {
            List<UUID> devices = List.of(UUID.randomUUID(), UUID.randomUUID());
            sendInOrder(node, devices, 8);

            List<Integer> expected = List.of(1, 2, 3, 5, 6, 7, 8);
            await().atMost(WAIT).untilAsserted(() -> devices.forEach(device ->
                    assertThat(storedSeqs(store, device)).as("stored readings of %s", device).isEqualTo(expected)));
            for (UUID device : devices) {
                assertThat(store.attempts(device)).as("what the actor of %s saw, in order", device).containsExactly(
                        "1:stored", "2:stored", "3:stored", "4:failed", "4:failed", "4:failed", "5:stored", "6:stored", "7:stored",
                        "8:stored");
            }
            List<ConsumerRecord<String, byte[]>> deadLetters = readAll(topic + ".dlt", 2);
            assertThat(deadLetters).extracting(ConsumerRecord::key)
                    .containsExactlyInAnyOrderElementsOf(devices.stream().map(UUID::toString).toList());
            for (ConsumerRecord<String, byte[]> deadLetter : deadLetters) {
                assertThat(new String(deadLetter.value(), StandardCharsets.UTF_8)).isEqualTo("{\"seq\":4}");
                assertThat(header(deadLetter, KafkaClusterMember.TYPE_HEADER)).isEqualTo("reading");
                assertThat(header(deadLetter, KafkaClusterMember.ENTITY_TYPE_HEADER)).isEqualTo(DEVICE);
                assertThat(header(deadLetter, DeadLetterPublisher.REASON_HEADER)).isEqualTo("FAILED");
                assertThat(header(deadLetter, DeadLetterPublisher.ERROR_HEADER))
                        .contains("reading 4 of " + deadLetter.key() + " is broken");
                assertThat(header(deadLetter, DeadLetterPublisher.ATTEMPTS_HEADER)).isEqualTo("3");
                assertThat(header(deadLetter, DeadLetterPublisher.TOPIC_HEADER)).isEqualTo(topic);
                assertThat(header(deadLetter, DeadLetterPublisher.PARTITION_HEADER))
                        .isEqualTo(String.valueOf(EntityPartitioner.partition(UUID.fromString(deadLetter.key()), ClusterNode.PARTITIONS)));
                assertThat(Long.parseLong(header(deadLetter, DeadLetterPublisher.OFFSET_HEADER))).isNotNegative();
            }
            assertThat(node.member().getDeadLetteredCount()).isEqualTo(2);
            assertThat(node.member().getRecentDeadLetters()).hasSize(2).allSatisfy(written -> {
                assertThat(written.reason()).isEqualTo(DeadLetterPublisher.Reason.FAILED);
                assertThat(written.attempts()).isEqualTo(3);
                assertThat(written.entity()).startsWith(DEVICE + "|");
            });
            HealthIndicator health = node.context().getBean("actorsClusterHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getDetails()).containsEntry("deadLetteredRecords", 2L)
                    .containsEntry("recentDeadLetters", node.member().getRecentDeadLetters());
            assertThat(node.meters().get(TbClusterMeterBinder.RECORDS_DEAD_LETTERED).functionCounter().count()).isEqualTo(2);
            DeadLettersEndpoint.DeadLettersDescriptor endpoint = new DeadLettersEndpoint(node.member()).deadLetters();
            assertThat(endpoint.topic()).isEqualTo(topic + ".dlt");
            assertThat(endpoint.total()).isEqualTo(2);
            assertThat(endpoint.byReason()).containsEntry(DeadLetterPublisher.Reason.FAILED, 2L)
                    .containsEntry(DeadLetterPublisher.Reason.TIMED_OUT, 0L).containsEntry(DeadLetterPublisher.Reason.NOT_PROCESSED, 0L);
            assertThat(endpoint.recent()).isEqualTo(node.member().getRecentDeadLetters());
            assertThat(node.member().getFailedCount()).isEqualTo(6);
            for (UUID device : devices) {
                TopicPartition tp = new TopicPartition(topic, EntityPartitioner.partition(device, ClusterNode.PARTITIONS));
                await().atMost(WAIT).until(() -> TestBrokers.committedOffset(broker, topic, tp) == TestBrokers.endOffset(broker, tp));
            }
        }
    }

    @Test
    void aReadingThatFailsForAWhileIsRetriedInPlaceAndStoredOnceInOrder() throws Exception {
        ReadingStore store = new ReadingStore();
        try (ClusterNode node = startAlone("flaky", store, "test.flaky-seq=3", "test.flaky-failures=2",
                "tb.actors.cluster.max-redeliveries=3")) {
            UUID device = UUID.randomUUID();
            sendInOrder(node, List.of(device), 6);

            await().atMost(WAIT).untilAsserted(() -> assertThat(storedSeqs(store, device)).isEqualTo(range(1, 6)));
            assertThat(store.attempts(device)).containsExactly("1:stored", "2:stored", "3:failed", "3:failed", "3:stored", "4:stored",
                    "5:stored", "6:stored");
            assertThat(node.member().getDeadLetteredCount()).isZero();
            assertThat(node.member().getRedeliveredCount()).isEqualTo(2);
        }
    }

    @Test
    void aReadingThatIsNeverCompletedTimesOutIsRetriedAndThenDeadLettered() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "hanging";
        try (ClusterNode node = startAlone(topic, store, "test.hanging-seq=2", "tb.actors.cluster.max-redeliveries=1",
                "tb.actors.cluster.processing-timeout=300ms")) {
            UUID device = UUID.randomUUID();
            sendInOrder(node, List.of(device), 4);

            await().atMost(WAIT).untilAsserted(() -> assertThat(storedSeqs(store, device)).isEqualTo(List.of(1, 3, 4)));
            assertThat(store.attempts(device)).containsExactly("1:stored", "2:hung", "2:hung", "3:stored", "4:stored");
            ConsumerRecord<String, byte[]> deadLetter = readAll(topic + ".dlt", 1).get(0);
            assertThat(header(deadLetter, DeadLetterPublisher.REASON_HEADER)).isEqualTo("TIMED_OUT");
            assertThat(header(deadLetter, DeadLetterPublisher.ERROR_HEADER)).contains("300ms");
            assertThat(node.member().getTimedOutCount()).isEqualTo(2);
        }
    }

    /**
     * A store refused a reading's write because a later owner of the partition wrote first: the record is that owner's.
     * Here the node still owns the partition (no other node exists), which shows what it does with such a record: it
     * delivers it no more, writes no dead letter, and leaves it uncommitted, with the device's later records, for the
     * owner the store knows of.
     */
    @Test
    void aRecordWhoseWriteWasSupersededIsNeitherRetriedNorDeadLetteredAndStaysUncommitted() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "superseded";
        try (ClusterNode node = startAlone(topic, store, "test.superseded-seq=2", "tb.actors.cluster.commit-interval=100ms")) {
            UUID device = UUID.randomUUID();
            TopicPartition tp = new TopicPartition(topic, EntityPartitioner.partition(device, ClusterNode.PARTITIONS));
            long first = sendThreeReadings(node, tp, device);
            await().atMost(WAIT).until(() -> node.member().getSupersededCount() == 1);

            awaitCommitHeldAt(tp, first + 1, "committed up to the superseded record",
                    () -> assertThat(store.attempts(device)).containsExactly("1:stored", "2:superseded"));
            assertThat(node.member().getRedeliveredCount()).isZero();
            assertThat(node.member().getDeadLetteredCount()).isZero();
            assertThat(node.member().getNotProcessedCount()).isZero();
            assertThat(node.meters().get(TbClusterMeterBinder.MESSAGES_SUPERSEDED).functionCounter().count()).isEqualTo(1.0);
        }
    }

    @Test
    void aRecordWhoseWorkFinishesLaterIsCommittedOnlyThenAndTheDevicesNextRecordWaitsForIt() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "later";
        try (ClusterNode node = startAlone(topic, store, "test.later-seq=2", "tb.actors.cluster.commit-interval=100ms")) {
            UUID device = UUID.randomUUID();
            TopicPartition tp = new TopicPartition(topic, EntityPartitioner.partition(device, ClusterNode.PARTITIONS));
            long first = sendThreeReadings(node, tp, device);
            await().atMost(WAIT).until(() -> store.isUnfinished(device, 2));

            awaitCommitHeldAt(tp, first + 1, "committed up to the unfinished record",
                    () -> assertThat(storedSeqs(store, device)).as("the next reading waits").containsExactly(1));
            assertThat(node.member().getOldestInFlight(tp.partition())).isPositive();
            assertThat(node.meters().get(TbClusterMeterBinder.OLDEST_IN_FLIGHT).tag("partition", String.valueOf(tp.partition()))
                    .gauge().value()).as("seconds the unfinished record has been in flight").isGreaterThanOrEqualTo(1.0);
            store.finish(device, 2);

            await().atMost(WAIT).untilAsserted(() -> assertThat(storedSeqs(store, device)).isEqualTo(List.of(1, 2, 3)));
            await().atMost(WAIT).until(() -> TestBrokers.committedOffset(broker, topic, tp) == first + 3);
            assertThat(node.member().getOldestInFlight(tp.partition())).isNull();
        }
    }

    /**
     * The root's mailbox holds two messages: with 40 devices posting at once it refuses most envelopes, which come
     * back {@code MAILBOX_FULL} and are delivered again in place.
     */
    @Test
    void aFullMailboxAtTheOwnerDelaysRecordsButNeitherLosesNorReordersThem() throws Exception {
        ReadingStore store = new ReadingStore();
        int readings = 15;
        try (ClusterNode node = startAlone("full-mailbox", store, "tb.actors.root-dispatcher=root",
                "tb.actors.dispatchers.root.type=single", "tb.actors.dispatchers.root.mailbox-bound=2",
                "tb.actors.cluster.max-redeliveries=1000")) {
            List<UUID> devices = IntStream.range(0, 40).mapToObj(i -> UUID.randomUUID()).toList();
            sendInOrder(node, devices, readings);

            await().atMost(WAIT).until(() -> store.size() >= devices.size() * readings);
            for (UUID device : devices) {
                assertThat(storedSeqs(store, device)).as("stored readings of %s", device).isEqualTo(range(1, readings));
            }
            assertThat(node.member().getRedeliveredCount()).as("envelopes refused by the full mailbox").isPositive();
            assertThat(node.member().getDeadLetteredCount()).isZero();
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<String, byte[]>> readAll(String topic, int expected) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            });
        }
        assertThat(records).hasSize(expected);
        return records;
    }
}
