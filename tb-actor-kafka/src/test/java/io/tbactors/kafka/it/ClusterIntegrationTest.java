package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.kafka.EntityPartitioner;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.KafkaTbClusterRouter;
import io.tbactors.kafka.TbClusterProperties;
import io.tbactors.kafka.TestMembers;
import io.tbactors.kafka.codec.TbActorMsgEncodingException;
import io.tbactors.kafka.metrics.TbClusterMeterBinder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Nodes of one application sharing devices through one real (embedded KRaft) broker, each node a Spring context of
 * its own in this JVM. Every test uses its own topic and group.
 */
@Slf4j
class ClusterIntegrationTest extends BrokerPerClass {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String DEVICE = ClusterTestApp.DEVICE;


    private static String brokers() {
        return broker.getBrokersAsString();
    }

    private static void awaitSplit(ClusterNode a, ClusterNode b) {
        await().atMost(WAIT).until(() -> {
            Set<Integer> ownedA = a.member().getOwnedPartitions();
            Set<Integer> ownedB = b.member().getOwnedPartitions();
            Set<Integer> all = new HashSet<>(ownedA);
            all.addAll(ownedB);
            return a.isActive() && b.isActive() && !ownedA.isEmpty() && !ownedB.isEmpty()
                    && all.size() == ClusterNode.PARTITIONS && ownedA.size() + ownedB.size() == ClusterNode.PARTITIONS;
        });
    }

    private static List<UUID> devices(int count) {
        return IntStream.range(0, count).mapToObj(i -> UUID.randomUUID()).toList();
    }

    @Test
    void readingsSentThroughBothNodesAreEachProcessedOnceByTheOwnerOfTheDeviceInOrder() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "steady";
        int readingsPerDevice = 25;
        try (ClusterNode a = ClusterNode.start("A", brokers(), topic, store);
             ClusterNode b = ClusterNode.start("B", brokers(), topic, store)) {
            awaitSplit(a, b);
            List<UUID> devices = devices(40);
            List<ClusterNode> nodes = List.of(a, b);
            ExecutorService senders = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (int i = 0; i < devices.size(); i++) {
                    UUID device = devices.get(i);
                    ClusterNode through = nodes.get(i % 2);
                    sent.add(senders.submit(() -> {
                        for (int seq = 1; seq <= readingsPerDevice; seq++) {
                            through.router().send(DEVICE, device, new Reading(seq)).get(30, TimeUnit.SECONDS);
                        }
                        return null;
                    }));
                }
                for (Future<?> future : sent) {
                    future.get(2, TimeUnit.MINUTES);
                }
            } finally {
                senders.shutdownNow();
            }

            await().atMost(WAIT).until(() -> store.size() >= devices.size() * readingsPerDevice);
            List<Integer> expected = IntStream.rangeClosed(1, readingsPerDevice).boxed().toList();
            for (UUID device : devices) {
                List<ReadingStore.Processed> readings = store.readings(device);
                assertThat(readings).extracting(ReadingStore.Processed::seq).as("readings of %s", device).isEqualTo(expected);
                String owner = a.owns(device) ? "A" : "B";
                assertThat(readings).extracting(ReadingStore.Processed::node).containsOnly(owner);
            }
            assertThat(store.overlaps()).isZero();
            for (ClusterNode node : nodes) {
                KafkaTbClusterRouter router = (KafkaTbClusterRouter) node.router();
                assertThat(router.getSentLocallyCount()).as("local sends of %s", node.name()).isPositive();
                assertThat(router.getSentRemotelyCount()).as("Kafka sends of %s", node.name()).isPositive();
                assertThat(node.meters().get(TbClusterMeterBinder.MESSAGES_SENT).tag("route", "local").functionCounter().count())
                        .isEqualTo(router.getSentLocallyCount());
                assertThat(node.meters().get(TbClusterMeterBinder.PARTITIONS_OWNED).gauge().value())
                        .isEqualTo(node.member().getOwnedPartitions().size());
                assertThat(node.meters().get(TbClusterMeterBinder.CONSUMER_LAG).gauges())
                        .hasSize(node.member().getOwnedPartitions().size());
                HealthIndicator health = node.context().getBean("actorsClusterHealthIndicator", HealthIndicator.class);
                assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            }
            assertThat(a.context().getBeanNamesForType(ProducerFactory.class))
                    .as("the cluster's producer is no bean: Spring Boot's own stays the application's")
                    .containsExactly("kafkaProducerFactory");
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(a.member().getRecordsInFlight()).isZero();
                assertThat(b.member().getRecordsInFlight()).isZero();
            });
        }
    }

    /**
     * A device sends through one node, and when that node stops answering, through the other. With local delivery
     * its last readings sent through the stopping node may be processed after its first ones sent through the new
     * owner (they took Kafka, the new ones did not), so the order is asserted only when every message takes Kafka.
     */
    @ParameterizedTest
    @EnumSource(TbClusterProperties.LocalDelivery.class)
    void stoppingANodeWhileSendingMovesItsPartitionsAndKeepsEveryAcknowledgedReading(TbClusterProperties.LocalDelivery localDelivery)
            throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "failover-" + localDelivery.name().toLowerCase(Locale.ROOT);
        String mode = "tb.actors.cluster.local-delivery=" + localDelivery;
        int readingsPerDevice = 40;
        ClusterNode a = ClusterNode.start("A", brokers(), topic, store, mode);
        try (ClusterNode b = ClusterNode.start("B", brokers(), topic, store, mode)) {
            awaitSplit(a, b);
            List<UUID> devices = devices(30);
            Map<UUID, Set<Integer>> acknowledged = new ConcurrentHashMap<>();
            AtomicInteger ackCount = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            ExecutorService senders = Executors.newFixedThreadPool(6);
            try {
                List<Future<?>> sent = new ArrayList<>();
                for (int i = 0; i < devices.size(); i++) {
                    UUID device = devices.get(i);
                    boolean startOnA = i % 2 == 0;
                    sent.add(senders.submit(() -> {
                        ClusterNode through = startOnA ? a : b;
                        for (int seq = 1; seq <= readingsPerDevice; seq++) {
                            try {
                                through.router().send(DEVICE, device, new Reading(seq)).get(20, TimeUnit.SECONDS);
                                acknowledged.computeIfAbsent(device, d -> ConcurrentHashMap.newKeySet()).add(seq);
                                ackCount.incrementAndGet();
                            } catch (Exception | Error notAcknowledged) {
                                // like a device whose connection broke: it reconnects to the other node and resends
                                refused.incrementAndGet();
                                through = b;
                                seq--;
                            }
                        }
                        return null;
                    }));
                }
                await().atMost(WAIT).until(() -> ackCount.get() >= devices.size() * readingsPerDevice / 4);
                a.close();
                for (Future<?> future : sent) {
                    future.get(3, TimeUnit.MINUTES);
                }
            } finally {
                senders.shutdownNow();
                a.close();
            }

            await().atMost(WAIT).until(() -> b.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            await().atMost(WAIT).untilAsserted(() -> {
                for (UUID device : devices) {
                    Set<Integer> stored = store.readings(device).stream().map(ReadingStore.Processed::seq).collect(Collectors.toSet());
                    assertThat(stored).as("stored readings of %s", device).containsAll(acknowledged.getOrDefault(device, Set.of()));
                }
            });
            int duplicates = 0;
            for (UUID device : devices) {
                List<Integer> seqs = store.readings(device).stream().map(ReadingStore.Processed::seq).toList();
                List<Integer> firstTimes = seqs.stream().distinct().toList();
                duplicates += seqs.size() - firstTimes.size();
                if (localDelivery == TbClusterProperties.LocalDelivery.NEVER) {
                    assertThat(firstTimes).as("first processing of each reading of %s", device).isSorted();
                }
            }
            log.info("Failover with local delivery {}: {} readings acknowledged, {} sends refused by the stopping node and "
                            + "resent, {} stored, {} duplicates, {} overlaps", localDelivery, ackCount.get(), refused.get(), store.size(),
                    duplicates, store.overlaps());
            assertThat(ackCount.get()).isEqualTo(devices.size() * readingsPerDevice);
            assertThat(store.overlaps()).isZero();
        }
    }

    @Test
    void recordsStillInFlightWhenTheBoundedRevocationWaitEndsAreDeliveredAgainByTheNextOwner() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "slow-failover";
        int readingsPerDevice = 20;
        ClusterNode a = ClusterNode.start("A", brokers(), topic, store, "test.processing-delay=10ms",
                "tb.actors.cluster.revocation-timeout=100ms");
        try (ClusterNode b = ClusterNode.start("B", brokers(), topic, store)) {
            awaitSplit(a, b);
            List<UUID> devicesOfA = devices(60).stream().filter(a::owns).limit(10).toList();
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (int seq = 1; seq <= readingsPerDevice; seq++) {
                for (UUID device : devicesOfA) {
                    sent.add(b.router().send(DEVICE, device, new Reading(seq)));
                }
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> store.size() >= 20);
            KafkaClusterMember memberOfA = a.member();
            a.close();

            await().atMost(WAIT).untilAsserted(() -> {
                for (UUID device : devicesOfA) {
                    assertThat(store.readings(device).stream().map(ReadingStore.Processed::seq).distinct().count())
                            .as("distinct readings of %s", device).isEqualTo(readingsPerDevice);
                }
            });
            int duplicates = store.size() - devicesOfA.size() * readingsPerDevice;
            log.info("Failover past the bounded wait: {} records abandoned by the stopping node, {} readings processed twice",
                    memberOfA.getAbandonedCount(), duplicates);
            assertThat(memberOfA.getAbandonedCount()).isPositive();
            assertThat(b.member().getOwnedPartitions()).hasSize(ClusterNode.PARTITIONS);
        } finally {
            a.close();
        }
    }

    @Test
    void recordsProcessedByANodeThatDiedBeforeCommittingAreProcessedAgainByTheNextOwner() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "no-commit";
        ClusterNode a = ClusterNode.start("A", brokers(), topic, store,
                new Class<?>[] {NodeThatNeverCommits.class, TestMembers.class});
        try (ClusterNode b = ClusterNode.start("B", brokers(), topic, store)) {
            awaitSplit(a, b);
            List<UUID> devicesOfA = devices(40).stream().filter(a::owns).toList();
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (UUID device : devicesOfA) {
                for (int seq = 1; seq <= 10; seq++) {
                    sent.add(b.router().send(DEVICE, device, new Reading(seq)));
                }
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> store.size() == sent.size());
            a.close();

            await().atMost(WAIT).until(() -> store.size() == 2 * sent.size());
            for (UUID device : devicesOfA) {
                List<ReadingStore.Processed> readings = store.readings(device);
                assertThat(readings.subList(0, 10)).extracting(ReadingStore.Processed::node).containsOnly("A");
                assertThat(readings.subList(10, 20)).extracting(ReadingStore.Processed::node).containsOnly("B");
                assertThat(readings).extracting(ReadingStore.Processed::seq)
                        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            }
            log.info("Failover after a node that never committed: {} acknowledged readings, each processed twice ({} duplicates)",
                    sent.size(), store.size() - sent.size());
        } finally {
            a.close();
        }
    }

    @Test
    void whenANodeJoinsTheActorsOfTheMovedPartitionsAreStoppedOnTheOldOwner() {
        ReadingStore store = new ReadingStore();
        String topic = "join";
        try (ClusterNode a = ClusterNode.start("A", brokers(), topic, store)) {
            await().atMost(WAIT).until(() -> a.isActive() && a.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            List<UUID> devices = devices(24);
            devices.forEach(device -> a.router().send(DEVICE, device, new Reading(1)).join());
            await().atMost(WAIT).until(() -> store.size() == devices.size());
            devices.forEach(device -> assertThat(a.actors().getActor(new TbEntityActorId(DEVICE, device))).isNotNull());

            try (ClusterNode b = ClusterNode.start("B", brokers(), topic, store)) {
                awaitSplit(a, b);
                List<UUID> moved = devices.stream().filter(b::owns).toList();
                List<UUID> kept = devices.stream().filter(a::owns).toList();
                assertThat(moved).isNotEmpty();
                await().atMost(WAIT).untilAsserted(() -> {
                    moved.forEach(device -> assertThat(a.actors().getActor(new TbEntityActorId(DEVICE, device))).isNull());
                    assertThat(store.stoppedOn("A")).containsAll(moved.stream().map(d -> new TbEntityActorId(DEVICE, d)).toList());
                });
                kept.forEach(device -> assertThat(a.actors().getActor(new TbEntityActorId(DEVICE, device))).isNotNull());

                devices.forEach(device -> a.router().send(DEVICE, device, new Reading(2)).join());
                await().atMost(WAIT).until(() -> store.size() == 2 * devices.size());
                for (UUID device : moved) {
                    assertThat(store.readings(device))
                            .containsExactly(new ReadingStore.Processed("A", 1), new ReadingStore.Processed("B", 2));
                    assertThat(b.actors().getActor(new TbEntityActorId(DEVICE, device))).isNotNull();
                }
            }
        }
    }

    @Test
    void anUndecodableRecordIsCountedAndSkippedWithoutBlockingItsPartition() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "bad-input";
        try (ClusterNode a = ClusterNode.start("A", brokers(), topic, store)) {
            await().atMost(WAIT).until(() -> a.isActive() && a.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            UUID device = UUID.randomUUID();
            int partition = EntityPartitioner.partition(device, ClusterNode.PARTITIONS);
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers(),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
                producer.send(record(topic, partition, device.toString(), "reading", "not json")).get();
                producer.send(record(topic, partition, device.toString(), "thermostat", "{\"seq\":7}")).get();
                producer.send(record(topic, partition, "not-a-uuid", "reading", "{\"seq\":8}")).get();
                producer.send(new ProducerRecord<>(topic, partition, device.toString(), "{\"seq\":9}".getBytes(StandardCharsets.UTF_8)))
                        .get();
                producer.send(record(topic, partition, device.toString(), "reading", "{\"seq\":1}")).get();
            }

            await().atMost(WAIT).until(() -> store.readings(device).size() == 1);
            assertThat(store.readings(device)).containsExactly(new ReadingStore.Processed("A", 1));
            assertThatThrownBy(() -> a.router().send(DEVICE, device, new NotRegistered()))
                    .as("a type the codec does not know fails at send, although this message would be told locally")
                    .isInstanceOf(TbActorMsgEncodingException.class)
                    .hasMessageContaining("tb.actors.cluster.message-types.<name>=" + NotRegistered.class.getName());
            KafkaClusterMember member = a.member();
            assertThat(member.getUndecodableCount()).isEqualTo(4);
            assertThat(a.meters().get(TbClusterMeterBinder.RECORDS_UNDECODABLE).functionCounter().count()).isEqualTo(4);
            TopicPartition tp = new TopicPartition(topic, partition);
            // every record committed, the undecodable ones too (and the node's ownership marker before them)
            await().atMost(WAIT).until(() -> TestBrokers.committedOffset(broker, topic, tp) == TestBrokers.endOffset(broker, tp));
        }
    }

    record NotRegistered() implements TbActorMsg {
    }

    private static ProducerRecord<String, byte[]> record(String topic, int partition, String key, String type, String json) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, partition, key, json.getBytes(StandardCharsets.UTF_8));
        record.headers().add(KafkaClusterMember.TYPE_HEADER, type.getBytes(StandardCharsets.UTF_8));
        record.headers().add(KafkaClusterMember.ENTITY_TYPE_HEADER, DEVICE.getBytes(StandardCharsets.UTF_8));
        return record;
    }
}
