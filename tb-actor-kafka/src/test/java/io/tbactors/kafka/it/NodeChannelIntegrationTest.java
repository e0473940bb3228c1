package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.kafka.KafkaTbNodeChannel;
import io.tbactors.kafka.TbClusterRemoteFailureException;
import io.tbactors.kafka.TbClusterReplyTimeoutException;
import io.tbactors.kafka.TbNodeChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The node-to-node channel with two nodes on the embedded broker: a request sent through a node that does not own the
 * device completes only once the owner has stored the reading (and fails with the owner's reason when the owner gives
 * it up, or with a timeout when the owner never finishes), and a broadcast reaches every node once.
 */
class NodeChannelIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String DEVICE = ClusterTestApp.DEVICE;
    private static final int FAILING_SEQ = 1001;
    private static final int HANGING_SEQ = 1002;
    private static final String[] BEHAVIOUR = {
        "test.processing-delay=5ms",
        "test.failing-seq=" + FAILING_SEQ,
        "test.hanging-seq=" + HANGING_SEQ,
        "tb.actors.cluster.max-redeliveries=1",
        "tb.actors.cluster.redelivery-delay=20ms",
        "tb.actors.cluster.max-redelivery-delay=100ms",
        "tb.actors.cluster.processing-timeout=60s"
    };

    private static EmbeddedKafkaKraftBroker broker;
    private static ReadingStore store;
    private static ClusterNode a;
    private static ClusterNode b;

    @BeforeAll
    static void startTwoNodes() {
        broker = TestBrokers.start();
        store = new ReadingStore();
        a = ClusterNode.start("A", broker.getBrokersAsString(), "channel", store, BEHAVIOUR);
        b = ClusterNode.start("B", broker.getBrokersAsString(), "channel", store, BEHAVIOUR);
        await().atMost(WAIT).until(() -> a.isActive() && b.isActive() && !a.member().getOwnedPartitions().isEmpty()
                && !b.member().getOwnedPartitions().isEmpty()
                && a.member().getOwnedPartitions().size() + b.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        TestBrokers.stop(broker);
    }

    private static List<UUID> devicesOwnedBy(ClusterNode owner, int count) {
        List<UUID> devices = new ArrayList<>();
        while (devices.size() < count) {
            UUID device = UUID.randomUUID();
            if (owner.owns(device)) {
                devices.add(device);
            }
        }
        return devices;
    }

    private static List<Integer> storedSeqs(UUID device) {
        return store.readings(device).stream().map(ReadingStore.Processed::seq).toList();
    }

    @Test
    void aRequestThroughANodeThatDoesNotOwnTheDeviceCompletesOnlyOnceTheOwnerHasStoredTheReading() throws Exception {
        List<UUID> remote = devicesOwnedBy(b, 6);
        List<UUID> local = devicesOwnedBy(a, 2);
        List<UUID> devices = new ArrayList<>(remote);
        devices.addAll(local);
        int readings = 30;
        Queue<String> answeredBeforeStored = new ConcurrentLinkedQueue<>();
        Map<UUID, CompletableFuture<Void>> chains = new ConcurrentHashMap<>();
        for (UUID device : devices) {
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            for (int seq = 1; seq <= readings; seq++) {
                int current = seq;
                // each device posts its next reading once the previous one is answered, as a device does
                chain = chain.thenCompose(ok -> a.router().request(DEVICE, device, new Reading(current), Duration.ofSeconds(20))
                        .thenRun(() -> {
                            if (!storedSeqs(device).contains(current)) {
                                answeredBeforeStored.add(device + ":" + current);
                            }
                        }));
            }
            chains.put(device, chain);
        }
        CompletableFuture.allOf(chains.values().toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        assertThat(answeredBeforeStored).as("readings answered before the owner stored them").isEmpty();
        List<Integer> expected = IntStream.rangeClosed(1, readings).boxed().toList();
        int duplicates = 0;
        for (UUID device : devices) {
            List<Integer> stored = storedSeqs(device);
            assertThat(stored.stream().distinct().toList()).as("readings of %s in order", device).isEqualTo(expected);
            duplicates += stored.size() - readings;
            String owner = remote.contains(device) ? "B" : "A";
            assertThat(store.readings(device)).extracting(ReadingStore.Processed::node).containsOnly(owner);
        }
        assertThat(duplicates).as("readings stored twice").isZero();
        KafkaTbNodeChannel channel = a.context().getBean(KafkaTbNodeChannel.class);
        assertThat(channel.getRequestsSentCount()).as("requests through Kafka").isGreaterThanOrEqualTo((long) remote.size() * readings);
        assertThat(channel.getPendingRequests()).isZero();
        assertThat(b.context().getBean(KafkaTbNodeChannel.class).getRepliesSentCount())
                .isGreaterThanOrEqualTo((long) remote.size() * readings);
    }

    @Test
    void aRequestTheOwnerGivesUpFailsWithTheOwnersReasonAndTheDevicesNextReadingsAreStored() throws Exception {
        UUID device = devicesOwnedBy(b, 1).get(0);
        a.router().request(DEVICE, device, new Reading(1), Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS);

        CompletableFuture<Void> failing = a.router().request(DEVICE, device, new Reading(FAILING_SEQ), Duration.ofSeconds(20));
        assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(TbClusterRemoteFailureException.class)
                .hasMessageContaining("DEVICE|" + device).hasMessageContaining("FAILED")
                .hasMessageContaining("reading " + FAILING_SEQ + " of " + device + " is broken")
                .hasMessageContaining("dead-letter topic");
        TbClusterRemoteFailureException failure = (TbClusterRemoteFailureException) failing.handle((ok, e) -> e.getCause() == null
                ? e : e.getCause()).get();
        assertThat(failure.getReason()).isEqualTo("FAILED");
        assertThat(store.attempts(device)).containsSubsequence(FAILING_SEQ + ":failed", FAILING_SEQ + ":failed");

        a.router().request(DEVICE, device, new Reading(2), Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS);
        assertThat(storedSeqs(device)).containsExactly(1, 2);
    }

    @Test
    void aRequestTheOwnerNeverFinishesFailsAfterItsTimeoutNamingTheDeviceAndTheTimeout() {
        UUID device = devicesOwnedBy(b, 1).get(0);

        CompletableFuture<Void> hanging = a.router().request(DEVICE, device, new Reading(HANGING_SEQ), Duration.ofMillis(1500));

        assertThatThrownBy(() -> hanging.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(TbClusterReplyTimeoutException.class)
                .hasMessageContaining("DEVICE|" + device).hasMessageContaining("PT1.5S").hasMessageContaining("may still be processed");
        assertThat(store.attempts(device)).contains(HANGING_SEQ + ":hung");
        assertThat(a.context().getBean(KafkaTbNodeChannel.class).getRepliesTimedOutCount()).isPositive();
    }

    @Test
    void aRequestWithoutAPositiveTimeoutIsRefusedNamingWhatIsAllowed() {
        assertThatThrownBy(() -> a.router().request(DEVICE, UUID.randomUUID(), new Reading(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive duration");
    }

    @Test
    void aBroadcastReachesTheListenersOfEveryNodeOnce() throws Exception {
        Reading announcement = new Reading(4242);
        TbNodeChannel channel = a.context().getBean(TbNodeChannel.class);

        channel.broadcast(announcement).get(30, TimeUnit.SECONDS);

        await().atMost(WAIT).until(() -> store.heardOn("B").contains(announcement));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(store.heardOn("A")).filteredOn(announcement::equals).hasSize(1);
            assertThat(store.heardOn("B")).filteredOn(announcement::equals).hasSize(1);
        });
        assertThat(channel.getNodeId()).isEqualTo("channel-A");
        assertThat(b.context().getBean(KafkaTbNodeChannel.class).getInboxTopic()).isEqualTo("channel.node.channel-B");
    }

    @Test
    void aMessageSentToOneNodeReachesThatNodesListenersOnly() throws Exception {
        Reading forB = new Reading(4343);
        Reading forA = new Reading(4344);
        KafkaTbNodeChannel channel = a.context().getBean(KafkaTbNodeChannel.class);

        channel.send("channel-B", forB).get(30, TimeUnit.SECONDS);
        channel.send("channel-A", forA).get(30, TimeUnit.SECONDS);

        await().atMost(WAIT).until(() -> store.heardOn("B").contains(forB));
        assertThat(store.heardOn("A")).as("this node's own, at once").contains(forA);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(store.heardOn("A")).doesNotContain(forB);
            assertThat(store.heardOn("B")).doesNotContain(forA).filteredOn(forB::equals).hasSize(1);
        });
        assertThat(b.context().getBean(KafkaTbNodeChannel.class).getDirectReceivedCount()).isGreaterThanOrEqualTo(1);
    }
}
