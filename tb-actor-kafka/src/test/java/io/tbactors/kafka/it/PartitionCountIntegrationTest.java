package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.kafka.EntityPartitioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.Test;

/**
 * Partitions added to the topic while two nodes run and devices send through both: both nodes hash with the new
 * count, own disjoint partitions that cover the topic, and every reading answered is stored, in order per device,
 * with no record of a new partition skipped.
 */
@Slf4j
class PartitionCountIntegrationTest extends BrokerPerClass {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String DEVICE = ClusterTestApp.DEVICE;
    private static final int MORE_PARTITIONS = 12;
    private static final String[] FAST_METADATA = {"tb.actors.cluster.consumer[metadata.max.age.ms]=1000",
        "tb.actors.cluster.producer[metadata.max.age.ms]=1000"};


    private static void sendRound(List<ClusterNode> nodes, List<UUID> devices, int seq) throws Exception {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i < devices.size(); i++) {
            sent.add(nodes.get(i % nodes.size()).router().request(DEVICE, devices.get(i), new Reading(seq), Duration.ofSeconds(30)));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    @Test
    void partitionsAddedAtRunTimeAreTakenByTheNodesWhichHashWithTheNewCountAndLoseNothing() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "grown";
        try (ClusterNode a = ClusterNode.start("A", broker.getBrokersAsString(), topic, store, FAST_METADATA);
             ClusterNode b = ClusterNode.start("B", broker.getBrokersAsString(), topic, store, FAST_METADATA)) {
            List<ClusterNode> nodes = List.of(a, b);
            await().atMost(WAIT).until(() -> a.isActive() && b.isActive() && !a.member().getOwnedPartitions().isEmpty()
                    && a.member().getOwnedPartitions().size() + b.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            List<UUID> devices = IntStream.range(0, 24).mapToObj(i -> UUID.randomUUID()).toList();
            int seq = 1;
            for (; seq <= 5; seq++) {
                sendRound(nodes, devices, seq);
            }

            broker.doWithAdmin(admin -> {
                try {
                    admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(MORE_PARTITIONS))).all().get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // the devices go on sending while the nodes find out
            for (; seq <= 10; seq++) {
                sendRound(nodes, devices, seq);
            }
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(a.member().getPartitionCount()).isEqualTo(MORE_PARTITIONS);
                assertThat(b.member().getPartitionCount()).isEqualTo(MORE_PARTITIONS);
                Set<Integer> ownedByA = a.member().getOwnedPartitions();
                Set<Integer> ownedByB = b.member().getOwnedPartitions();
                // during the rebalance a node may own nothing for a moment: AssertJ's doesNotContainAnyElementsOf throws
                // IllegalArgumentException (not retried by Awaitility) on an empty set, so test disjointness directly
                assertThat(ownedByA).as("owned by A %s, owned by B %s", ownedByA, ownedByB).isNotEmpty();
                assertThat(ownedByB).as("owned by B %s, owned by A %s", ownedByB, ownedByA).isNotEmpty();
                assertThat(Collections.disjoint(ownedByA, ownedByB)).as("owned by A %s and by B %s are disjoint", ownedByA, ownedByB)
                        .isTrue();
                Set<Integer> all = new HashSet<>(ownedByA);
                all.addAll(ownedByB);
                assertThat(all).hasSize(MORE_PARTITIONS);
            });
            for (; seq <= 15; seq++) {
                sendRound(nodes, devices, seq);
            }

            List<Integer> expected = IntStream.rangeClosed(1, 15).boxed().toList();
            int duplicates = 0;
            int moved = 0;
            for (UUID device : devices) {
                List<Integer> stored = store.readings(device).stream().map(ReadingStore.Processed::seq).toList();
                assertThat(stored.stream().distinct().toList()).as("readings of %s, in order", device).isEqualTo(expected);
                duplicates += stored.size() - expected.size();
                if (EntityPartitioner.partition(device, MORE_PARTITIONS) != EntityPartitioner.partition(device, ClusterNode.PARTITIONS)) {
                    moved++;
                }
            }
            assertThat(moved).as("devices whose partition changed").isPositive();
            assertThat(a.member().getPartitionCountChanges() + b.member().getPartitionCountChanges()).isGreaterThanOrEqualTo(2);
            log.info("Partitions 6 -> 12 under load: {} devices, {} moved partition, {} readings stored twice", devices.size(), moved,
                    duplicates);
        }
    }
}
