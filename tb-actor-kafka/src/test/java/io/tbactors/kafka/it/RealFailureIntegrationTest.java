package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.kafka.metrics.TbClusterMeterBinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import kafka.server.BrokerServer;
import lombok.extern.slf4j.Slf4j;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Failures that really happen: a node's process killed with SIGKILL (it never leaves the group, never commits what
 * it holds), and the broker stopped and started again while devices post. Each device posts a numbered sequence and
 * moves to its next reading only once the current one is acknowledged (resending it when it is not), as a device
 * does; every acknowledged reading must be stored, in order per device. Duplicates are counted and reported.
 */
@Slf4j
class RealFailureIntegrationTest extends BrokerPerClass {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String DEVICE = ClusterTestApp.DEVICE;


    private static void awaitAll(List<Future<?>> posting) throws Exception {
        for (Future<?> future : posting) {
            future.get(3, TimeUnit.MINUTES);
        }
    }

    @Test
    void aNodeKilledWithSigkillLosesNoAcknowledgedReadingAndTheSurvivorKeepsEachDevicesOrder() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "sigkill";
        Path journal = Files.createTempFile("killed-node", ".journal");
        Path output = Path.of("target", "killed-node.log");
        try (ClusterNode survivor = ClusterNode.start("B", broker.getBrokersAsString(), topic, store, "test.processing-delay=2ms")) {
            await().atMost(WAIT).until(() -> survivor.isActive()
                    && survivor.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            Files.deleteIfExists(output);
            Process killed = KillableNodeMain.start(broker.getBrokersAsString(), topic, journal, "K", output);
            ExecutorService senders = Executors.newFixedThreadPool(8);
            try {
                await().atMost(WAIT).until(() -> {
                    int owned = survivor.member().getOwnedPartitions().size();
                    return owned > 0 && owned < ClusterNode.PARTITIONS && survivor.isActive();
                });
                PostingDevices devices = new PostingDevices(16, 60);
                List<Future<?>> posting = devices.post(senders, survivor);
                // about 100 readings stored by the node to kill (a journal line is some 60 bytes)
                await().atMost(WAIT).until(() -> Files.size(journal) > 6000);
                killed.destroyForcibly();
                assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();
                long killedAt = System.nanoTime();
                await().atMost(WAIT).until(() -> survivor.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
                long takenOverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                awaitAll(posting);

                Map<UUID, List<ReadingStore.Processed>> byKilled = ReadingStore.readJournal(journal);
                Function<UUID, List<Integer>> stored = device -> {
                    // the killed node stored before it died, the survivor after: together, in storing order
                    List<Integer> seqs = new ArrayList<>(byKilled.getOrDefault(device, List.of()).stream()
                            .map(ReadingStore.Processed::seq).toList());
                    seqs.addAll(store.readings(device).stream().map(ReadingStore.Processed::seq).toList());
                    return seqs;
                };
                await().atMost(WAIT).untilAsserted(() -> devices.assertEveryAcknowledgedReadingStoredInOrder(stored));
                int duplicates = devices.assertEveryAcknowledgedReadingStoredInOrder(stored);
                int storedByKilled = byKilled.values().stream().mapToInt(List::size).sum();
                log.info("SIGKILL of a node: {} readings acknowledged ({} resent), {} stored by the killed node, {} by the survivor, "
                                + "{} duplicates; the survivor owned every partition {} ms after the kill", devices.acks.get(),
                        devices.resent.get(), storedByKilled, store.size(), duplicates, takenOverMillis);
                assertThat(storedByKilled).as("the killed node processed readings before it died").isPositive();
                assertThat(devices.acks.get()).isEqualTo(devices.ids.size() * devices.readingsEach);
            } finally {
                senders.shutdownNow();
                killed.destroyForcibly();
            }
        }
    }

    /**
     * A rolling restart with static membership: a node's process is stopped with SIGTERM and started again with the
     * same {@code group-instance-id} within the session timeout, while devices post through the other node. The other
     * node sees no rebalance at all (its partitions never move), the restarted node gets its own partitions back, and
     * every acknowledged reading, including those sent while it was down, is stored in order per device.
     */
    @Test
    void aStaticMemberRestartedWithinTheSessionTimeoutGetsItsPartitionsBackWithoutARebalanceOfTheOthers() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "rolling";
        Path journal = Files.createTempFile("restarted-node", ".journal");
        Path output = Path.of("target", "restarted-node.log");
        Files.deleteIfExists(output);
        String longSession = "tb.actors.cluster.consumer[session.timeout.ms]=45000";
        try (ClusterNode survivor = ClusterNode.start("B", broker.getBrokersAsString(), topic, store, "test.processing-delay=2ms",
                "tb.actors.cluster.group-instance-id=node-b", longSession)) {
            await().atMost(WAIT).until(() -> survivor.isActive()
                    && survivor.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            Process first = KillableNodeMain.start(broker.getBrokersAsString(), topic, journal, "K", output,
                    "tb.actors.cluster.group-instance-id=node-k", longSession);
            Process second = null;
            ExecutorService senders = Executors.newFixedThreadPool(8);
            try {
                await().atMost(WAIT).until(() -> {
                    int owned = survivor.member().getOwnedPartitions().size();
                    return owned > 0 && owned < ClusterNode.PARTITIONS && survivor.isActive();
                });
                PostingDevices devices = new PostingDevices(16, Integer.MAX_VALUE);
                List<Future<?>> posting = devices.post(senders, survivor);
                // the restarted node has processed readings: both rounds of the rebalance it caused are over
                await().atMost(WAIT).until(() -> Files.size(journal) > 2000);
                long rebalances = survivor.member().getRebalanceCount();
                java.util.Set<Integer> survivorOwns = survivor.member().getOwnedPartitions();

                first.destroy();
                assertThat(first.waitFor(60, TimeUnit.SECONDS)).as("the node stopped on SIGTERM").isTrue();
                assertThat(first.exitValue()).as("SIGTERM's exit status").isEqualTo(143);
                int acksWhileDown = devices.acks.get();
                long journalAtStop = Files.size(journal);
                second = KillableNodeMain.start(broker.getBrokersAsString(), topic, journal, "K", output,
                        "tb.actors.cluster.group-instance-id=node-k", longSession);
                await().atMost(WAIT).until(() -> Files.size(journal) > journalAtStop + 2000);
                devices.finish(20);
                awaitAll(posting);
                assertThat(survivor.member().getRebalanceCount()).as("rebalances the survivor saw during the restart")
                        .isEqualTo(rebalances);
                assertThat(survivor.member().getOwnedPartitions()).isEqualTo(survivorOwns);

                // no partition moved: the restarted node's journal, then the survivor's store, hold each device's order

                Function<UUID, List<Integer>> stored = device -> {
                    List<Integer> seqs = new ArrayList<>(ReadingStore.readJournal(journal).getOrDefault(device, List.of()).stream()
                            .map(ReadingStore.Processed::seq).toList());
                    seqs.addAll(store.readings(device).stream().map(ReadingStore.Processed::seq).toList());
                    return seqs;
                };
                await().atMost(WAIT).untilAsserted(() -> devices.assertEveryAcknowledgedReadingStoredInOrder(stored));
                int duplicates = devices.assertEveryAcknowledgedReadingStoredInOrder(stored);
                log.info("Rolling restart of a static member: {} readings acknowledged, {} of them after the stop, "
                                + "{} resent, {} duplicates; the survivor owned {} of {} partitions throughout", devices.acks.get(),
                        devices.acks.get() - acksWhileDown, devices.resent.get(), duplicates, survivorOwns.size(),
                        ClusterNode.PARTITIONS);
            } finally {
                senders.shutdownNow();
                first.destroyForcibly();
                if (second != null) {
                    second.destroy();
                    if (!second.waitFor(60, TimeUnit.SECONDS)) {
                        second.destroyForcibly();
                    }
                }
            }
        }
    }

    @Test
    void theBrokerStoppedAndRestartedUnderLoadTurnsHealthDownAndLosesNoAcknowledgedReading() throws Exception {
        ReadingStore store = new ReadingStore();
        try (ClusterNode node = ClusterNode.start("A", broker.getBrokersAsString(), "outage", store,
                "tb.actors.cluster.local-delivery=never", "tb.actors.cluster.send-timeout=2s",
                "tb.actors.cluster.connectivity-check-interval=500ms")) {
            await().atMost(WAIT).until(() -> node.isActive() && node.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            HealthIndicator health = node.context().getBean("actorsClusterHealthIndicator", HealthIndicator.class);
            ApplicationAvailability availability = node.context().getBean(ApplicationAvailability.class);
            await().atMost(WAIT).until(() -> health.health().getStatus().equals(Status.UP));
            ExecutorService senders = Executors.newFixedThreadPool(8);
            try {
                // enough readings that the devices are still posting when the broker is down
                PostingDevices devices = new PostingDevices(12, 300);
                List<Future<?>> posting = devices.post(senders, node);
                await().atMost(WAIT).until(() -> devices.acks.get() >= 100);

                BrokerServer server = TestBrokers.stopBrokerServer(broker);
                int acksWhileDown = devices.acks.get();
                await().atMost(WAIT).untilAsserted(() -> {
                    // a check that began before the stop may still have found the broker and missed the coordinator
                    Health down = health.health();
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails()).containsEntry("broker", "unreachable").containsEntry("groupCoordinator", "unreachable");
                    assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
                });
                // down for longer than a send may take: senders see their sends refused (or their outcome unknown)
                await().atMost(WAIT).until(() -> devices.resent.get() > 0);
                server.startup();

                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                    assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
                });
                awaitAll(posting);
                Function<UUID, List<Integer>> stored = device -> store.readings(device).stream().map(ReadingStore.Processed::seq)
                        .toList();
                await().atMost(WAIT).untilAsserted(() -> devices.assertEveryAcknowledgedReadingStoredInOrder(stored));
                int duplicates = devices.assertEveryAcknowledgedReadingStoredInOrder(stored);
                log.info("Broker restart under load: {} readings acknowledged ({} before the stop), {} sends resent, {} of them with "
                                + "an unknown outcome, {} stored, {} duplicates", devices.acks.get(), acksWhileDown, devices.resent.get(),
                        devices.outcomeUnknown.get(), store.size(), duplicates);
                assertThat(devices.acks.get()).isEqualTo(devices.ids.size() * devices.readingsEach);
                assertThat(store.overlaps()).isZero();
            } finally {
                senders.shutdownNow();
            }
        }
    }

    @Test
    void aNodeConfiguredToStartWithoutKafkaStartsRefusingTrafficAndJoinsOnceKafkaIsThere() throws Exception {
        ReadingStore store = new ReadingStore();
        BrokerServer server = TestBrokers.stopBrokerServer(broker);
        try (ClusterNode node = ClusterNode.start("A", broker.getBrokersAsString(), "late", store,
                "tb.actors.cluster.start-without-kafka=true", "tb.actors.cluster.connectivity-check-interval=500ms",
                "tb.actors.cluster.send-timeout=1s")) {
            ApplicationAvailability availability = node.context().getBean(ApplicationAvailability.class);
            HealthIndicator health = node.context().getBean("actorsClusterHealthIndicator", HealthIndicator.class);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
                assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
            });
            UUID device = UUID.randomUUID();
            assertThat(node.router().send(DEVICE, device, new Reading(1))).as("no topic known yet")
                    .failsWithin(Duration.ofSeconds(10));

            server.startup();
            await().atMost(WAIT).until(() -> node.isActive() && node.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
                assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            });
            for (int seq = 1; seq <= 3; seq++) {
                node.router().send(DEVICE, device, new Reading(seq)).get(30, TimeUnit.SECONDS);
            }
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(store.readings(device)).extracting(ReadingStore.Processed::seq).containsExactly(1, 2, 3));
        } finally {
            if (server.isShutdown()) {
                // the next tests of this class need the broker
                server.startup();
            }
        }
    }

    /**
     * A node cut off from Kafka cannot tell whether the group still counts it: once it has not heard from the group's
     * coordinator for the session timeout, by which time the group has given its partitions away, it gives them up
     * itself (its actors for them stop, local sends go through Kafka) and takes them back when it rejoins.
     */
    @Test
    void aNodeThatCannotConfirmItsMembershipWithinTheSessionTimeoutStopsProcessingItsPartitionsUntilItRejoins() throws Exception {
        ReadingStore store = new ReadingStore();
        BrokerServer server = null;
        try (ClusterNode node = ClusterNode.start("A", broker.getBrokersAsString(), "fenced", store,
                "tb.actors.cluster.connectivity-check-interval=500ms", "tb.actors.cluster.send-timeout=1s")) {
            await().atMost(WAIT).until(() -> node.isActive() && node.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            UUID device = UUID.randomUUID();
            node.router().send(DEVICE, device, new Reading(1)).get(30, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> node.router().isLocal(device));

            server = TestBrokers.stopBrokerServer(broker);
            long stoppedAt = System.nanoTime();

            await().atMost(WAIT).until(() -> node.member().getOwnedPartitions().isEmpty());
            Duration fencedAfter = Duration.ofNanos(System.nanoTime() - stoppedAt);
            log.info("Fenced {} after the broker stopped (session timeout 6 s, heartbeat interval 500 ms)", fencedAfter);
            // fenced 4.5 s (the session timeout less a heartbeat interval and a second) after Kafka's last answer, which came
            // up to a heartbeat interval (500 ms) and a poll (200 ms) before the stop
            assertThat(fencedAfter).as("not long before the session timeout").isGreaterThanOrEqualTo(Duration.ofMillis(3500));
            assertThat(node.router().isLocal(device)).as("local processing stopped").isFalse();
            await().atMost(WAIT).until(() -> store.stoppedOn("A").stream().anyMatch(id -> id.toString().endsWith(device.toString())));
            assertThat(node.member().getFencedCount()).isEqualTo(1);
            assertThat(node.meters().get(TbClusterMeterBinder.FENCED).functionCounter().count()).isEqualTo(1);

            server.startup();
            await().atMost(WAIT).until(() -> node.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            node.router().send(DEVICE, device, new Reading(2)).get(30, TimeUnit.SECONDS);
            // reading 1 is processed again when its offset was not committed before the broker stopped (at least once)
            await().atMost(WAIT).untilAsserted(() -> assertThat(store.readings(device).stream().map(ReadingStore.Processed::seq)
                    .distinct().toList()).containsExactly(1, 2));
            log.info("Fencing: readings stored {}", store.readings(device));
        } finally {
            if (server != null && server.isShutdown()) {
                server.startup();
            }
        }
    }
}
