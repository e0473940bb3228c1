package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.kafka.EntityPartitioner;
import io.tbactors.kafka.TestMembers;
import io.tbactors.kafka.metrics.TbClusterMeterBinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import lombok.extern.slf4j.Slf4j;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * One owner at a time, even for a node that was fenced: a node's process stopped with SIGSTOP for longer than the
 * session timeout, while the other node takes its partitions and their load, then resumed with SIGCONT (each node logs
 * its ownership changes with their times, {@link OwnershipLog}, and stores its readings with the time of the write);
 * and a node fenced while its membership holds, which keeps partitions through the next rebalance.
 */
@Slf4j
class FencingIntegrationTest extends BrokerPerClass {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** The session timeout of {@link ClusterNode}. */
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);
    private static final Duration PAUSE = SESSION_TIMEOUT.multipliedBy(5).dividedBy(2);

    @Test
    void aNodePausedPastItsSessionTimeoutNeitherTakesItsPartitionsBackNorWritesWhileTheOtherNodeOwnsThem() throws Exception {
        String topic = "paused";
        // one store for both nodes, as a database would be: each appends its writes, fenced by their tokens
        Path journal = Files.createTempFile("paused-node", ".journal");
        ReadingStore store = new ReadingStore(journal);
        Path pausedOwnership = Files.createTempFile("paused-node", ".ownership");
        Path survivorOwnership = Files.createTempFile("survivor", ".ownership");
        Path output = Path.of("target", "paused-node.log");
        Files.deleteIfExists(output);
        try (ClusterNode survivor = ClusterNode.start("A", broker.getBrokersAsString(), topic, store, "test.processing-delay=2ms")) {
            OwnershipLog.follow(survivor.member(), survivorOwnership);
            await().atMost(WAIT).until(() -> survivor.isActive()
                    && survivor.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            // each reading on the node to pause waits 25 ms between its ownership check and its write, so readings are
            // in that window when the node stops, and write when it resumes; and one reading, once the test asks, waits
            // there 5 s and says so, so that at least one is in the window for certain when the stop comes
            Path hold = journal.resolveSibling(journal.getFileName() + ".hold");
            Process paused = KillableNodeMain.start(broker.getBrokersAsString(), topic, journal, "P", output,
                    "test.processing-delay=0ms", "test.write-delay=25ms", "test.hold-file=" + hold, "test.hold=5s",
                    KillableNodeMain.OWNERSHIP_LOG + pausedOwnership);
            ExecutorService senders = Executors.newFixedThreadPool(16);
            try {
                await().atMost(WAIT).until(() -> {
                    int owned = survivor.member().getOwnedPartitions().size();
                    return owned > 0 && owned < ClusterNode.PARTITIONS && survivor.isActive();
                });
                PostingDevices devices = new PostingDevices(16, Integer.MAX_VALUE);
                // each device waits for its reading to be stored (200), so the paused node has no backlog to catch up on
                List<Future<?>> posting = devices.post(senders, seq -> survivor, true);
                await().atMost(WAIT).until(() -> linesOf("P", journal).size() > 100);
                Files.createFile(hold);
                Path held = Path.of(hold + ClusterTestApp.Behaviour.HELD);
                await().atMost(WAIT).pollInterval(Duration.ofMillis(1)).until(() -> Files.exists(held));

                signal("STOP", paused);
                long stoppedAt = System.currentTimeMillis();
                int storedAtStop = store.size();
                await().atMost(WAIT).until(() -> survivor.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
                long takenOverAt = System.currentTimeMillis();
                // the survivor takes the paused node's load, for longer than the session timeout past the takeover
                await().atMost(WAIT).until(() -> store.size() > storedAtStop + 100
                        && System.currentTimeMillis() - stoppedAt >= PAUSE.toMillis());
                signal("CONT", paused);
                long resumedAt = System.currentTimeMillis();

                // the paused node is a member again and processes readings
                await().atMost(WAIT).until(() -> linesOf("P", journal).stream().anyMatch(line -> line.millis() > resumedAt + 1000));
                devices.finish(20);
                for (Future<?> future : posting) {
                    future.get(3, TimeUnit.MINUTES);
                }

                List<OwnershipLog.Change> pausedChanges = OwnershipLog.read(pausedOwnership);
                List<OwnershipLog.Change> survivorChanges = OwnershipLog.read(survivorOwnership);
                log.info("Paused node P: stopped at {}, the survivor A owned every partition {} ms later, resumed at {} ({} ms)",
                        stoppedAt, takenOverAt - stoppedAt, resumedAt, resumedAt - stoppedAt);
                pausedChanges.forEach(change -> log.info("P owns {} from {} ({} ms after the resume)", change.owned(),
                        change.millis(), change.millis() - resumedAt));
                survivorChanges.forEach(change -> log.info("A owns {} from {} ({} ms after the resume)", change.owned(),
                        change.millis(), change.millis() - resumedAt));
                List<OwnershipLog.Interval> pausedIntervals = OwnershipLog.intervals(pausedChanges);
                List<OwnershipLog.Interval> survivorIntervals = OwnershipLog.intervals(survivorChanges);

                SoftAssertions softly = new SoftAssertions();
                // a partition P takes after the resume: only once A has given it up
                for (OwnershipLog.Interval taken : pausedIntervals) {
                    if (taken.from() >= resumedAt) {
                        softly.assertThat(survivorIntervals).as("A's ownership while P took partition %d at %d", taken.partition(),
                                taken.from()).noneMatch(taken::overlaps);
                    }
                }
                // no write by P that the store took, of a partition while A owned it (P could not log while it was stopped:
                // its writes tell). A write whose epoch check passed before the stop reaches the store after the resume;
                // it carries P's old fencing token, lower than A's, and the store refuses it: P reports it superseded.
                List<ReadingStore.Journaled> refused = ReadingStore.readRefusedLines(journal);
                refused.forEach(line -> log.info("The store refused reading {} of {} (partition {}) by {} with token {}, "
                        + "{} ms after the resume", line.seq(), line.device(), partition(line.device()), line.node(), line.token(),
                        line.millis() - resumedAt));
                List<ReadingStore.Journaled> writesWhileMoved = ReadingStore.readJournalLines(journal).stream()
                        .filter(line -> line.node().equals("P") && line.millis() >= stoppedAt)
                        .filter(line -> survivorIntervals.stream().anyMatch(owned -> owned.partition() == partition(line.device())
                                && owned.contains(line.millis())))
                        .toList();
                writesWhileMoved.forEach(line -> log.warn("P wrote reading {} of {} (partition {}) at {}, {} ms after the resume, "
                        + "while A owned it", line.seq(), line.device(), partition(line.device()), line.millis(),
                        line.millis() - resumedAt));
                softly.assertThat(writesWhileMoved).as("writes by the paused node while the other node owned the partition").isEmpty();
                softly.assertThat(refused).as("writes of the paused node that the store refused (checked before the stop, "
                        + "written after it)").isNotEmpty().allMatch(line -> line.node().equals("P"));
                softly.assertThat(Files.readString(output)).as("the paused node's log").contains("A store refused the write");
                softly.assertThat(ReadingStore.Fenced.of(ReadingStore.readJournalLines(journal), FencingIntegrationTest::partition)
                        .refused()).as("writes the store took with a token older than one it took before").isEmpty();

                softly.assertAll();

                // both nodes' writes of the device, in the order the store took them
                Function<UUID, List<Integer>> stored = device -> ReadingStore.readJournalLines(journal).stream()
                        .filter(line -> line.device().equals(device)).map(ReadingStore.Journaled::seq).toList();
                await().atMost(WAIT).untilAsserted(() -> devices.assertEveryAcknowledgedReadingStoredInOrder(stored));
                int duplicates = devices.assertEveryAcknowledgedReadingStoredInOrder(stored);
                log.info("Pause of {} ms: {} readings acknowledged ({} resent), {} stored by P, {} by A, {} duplicates, {} refused "
                        + "by the fence", resumedAt - stoppedAt, devices.acks.get(), devices.resent.get(), linesOf("P", journal).size(),
                        store.size(), duplicates, refused.size());
            } finally {
                senders.shutdownNow();
                signal("CONT", paused);
                paused.destroyForcibly();
            }
        }
    }

    /**
     * A store fenced by token needs the later owner of a partition to carry the greater token, whichever node it is on:
     * each node counts its own assignments from 1, so that count cannot serve. A reads a device of every partition, B
     * joins and takes some of them, then every device reads again.
     */
    @Test
    void theNewOwnerOfAPartitionWritesWithAGreaterFencingTokenThanTheOldOne() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "tokens";
        String brokers = broker.getBrokersAsString();
        try (ClusterNode a = ClusterNode.start("A", brokers, topic, store)) {
            awaitOwnsEveryPartition(a);
            List<UUID> devices = onePerPartition();
            writeEveryDevice(a, store, devices, 1);
            try (ClusterNode b = ClusterNode.start("B", brokers, topic, store)) {
                await().atMost(WAIT).until(() -> a.isActive() && b.isActive() && !b.member().getOwnedPartitions().isEmpty()
                        && a.member().getOwnedPartitions().size() + b.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
                writeEveryDevice(b, store, devices, 2);
                SoftAssertions softly = new SoftAssertions();
                int moved = 0;
                for (UUID device : devices) {
                    List<ReadingStore.Journaled> writes = store.writes(device);
                    assertThat(writes).extracting(ReadingStore.Journaled::seq).as("writes of %s", device).containsExactly(1, 2);
                    ReadingStore.Journaled before = writes.get(0);
                    ReadingStore.Journaled after = writes.get(1);
                    log.info("Partition {}: reading 1 by {} with token {}, reading 2 by {} with token {}", partition(device),
                            before.node(), before.token(), after.node(), after.token());
                    if (after.node().equals(before.node())) {
                        softly.assertThat(after.token()).as("token of partition %d, kept by %s", partition(device), after.node())
                                .isGreaterThanOrEqualTo(before.token());
                    } else {
                        moved++;
                        softly.assertThat(after.token()).as("token of partition %d, moved from %s to %s", partition(device),
                                before.node(), after.node()).isGreaterThan(before.token());
                    }
                }
                softly.assertThat(moved).as("partitions moved to B").isPositive();
                softly.assertAll();
            }
        }
    }

    /**
     * Kafka deletes a group once it has had no member for as long as its offsets are kept (a week by default), and a
     * group created anew counts its generations from the start again; the fencing tokens must not. A alone writes a
     * device of every partition and stops, the group is deleted, then B alone writes them again.
     */
    @Test
    void aGroupDeletedAndCreatedAnewStillGivesTheNextOwnerOfAPartitionAGreaterFencingToken() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "regrouped";
        String brokers = broker.getBrokersAsString();
        List<UUID> devices = onePerPartition();
        try (ClusterNode a = ClusterNode.start("A", brokers, topic, store)) {
            awaitOwnsEveryPartition(a);
            writeEveryDevice(a, store, devices, 1);
        }
        await().atMost(WAIT).untilAsserted(() -> broker.doWithAdminFunction(admin -> {
            try {
                return admin.deleteConsumerGroups(List.of("group-" + topic)).all().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("group not deleted yet", e);
            }
        }));
        try (ClusterNode b = ClusterNode.start("B", brokers, topic, store)) {
            awaitOwnsEveryPartition(b);
            writeEveryDevice(b, store, devices, 2);
            SoftAssertions softly = new SoftAssertions();
            for (UUID device : devices) {
                List<ReadingStore.Journaled> writes = store.writes(device);
                long newestOfA = writes.stream().filter(write -> write.node().equals("A")).mapToLong(ReadingStore.Journaled::token)
                        .max().orElseThrow();
                long oldestOfB = writes.stream().filter(write -> write.node().equals("B")).mapToLong(ReadingStore.Journaled::token)
                        .min().orElseThrow();
                log.info("Partition {}: A's newest token {}, B's oldest {}", partition(device), newestOfA, oldestOfB);
                softly.assertThat(oldestOfB).as("B's token of partition %d, after A's %d", partition(device), newestOfA)
                        .isGreaterThan(newestOfA);
            }
            softly.assertAll();
        }
    }

    /**
     * A node that cannot write the ownership markers of the partitions Kafka assigns it does not take them: it skips
     * what it polls from them and tries the markers again, after a growing delay, without a rebalance of the group. Once
     * a marker goes through it owns the partition, with the marker's offset as its token, and processes the records of
     * the meantime.
     */
    @Test
    void partitionsWhoseOwnershipMarkersFailAreTakenOnlyOnceAMarkerIsWrittenAndNoneOfTheirRecordsIsDropped() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "unmarked";
        NodeWithFailingMarkers.FAILING.set(true);
        try (ClusterNode a = ClusterNode.start("A", broker.getBrokersAsString(), topic, store,
                new Class<?>[] {NodeWithFailingMarkers.class, TestMembers.class})) {
            // the markers of the assignment and of the first retry failed
            await().atMost(WAIT).until(() -> a.member().getMarkerFailureCount() >= 2L * ClusterNode.PARTITIONS);
            long rebalances = a.member().getRebalanceCount();
            assertThat(a.member().getOwnedPartitions()).as("partitions taken without a marker").isEmpty();
            List<UUID> devices = onePerPartition();
            for (UUID device : devices) {
                a.router().send(ClusterTestApp.DEVICE, device, new Reading(1)).get(30, TimeUnit.SECONDS);
            }
            // the records are polled while the node owns nothing, and skipped
            await().atMost(WAIT).until(() -> a.member().getConsumedCount() >= devices.size());
            assertThat(devices).allMatch(device -> store.writes(device).isEmpty());

            NodeWithFailingMarkers.FAILING.set(false);
            await().atMost(WAIT).until(() -> a.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            awaitWritten(store, devices, 1);
            assertThat(a.meters().get(TbClusterMeterBinder.MARKERS_FAILED).functionCounter().count())
                    .isEqualTo(a.member().getMarkerFailureCount());
            assertThat(a.member().getFencedCount()).as("fences").isZero();
            assertThat(a.member().getRebalanceCount()).as("changes of ownership since the retries began: the partitions taken")
                    .isEqualTo(rebalances + 1);
            for (UUID device : devices) {
                assertThat(store.writes(device)).as("writes of %s", device).extracting(ReadingStore.Journaled::seq).containsExactly(1);
                assertThat(store.writes(device).get(0).token()).as("the token: the offset of the marker written").isNotNegative();
            }
        } finally {
            NodeWithFailingMarkers.FAILING.set(false);
        }
    }

    /**
     * A node fenced while its membership is intact keeps its assignment; in the next rebalance (a node joins) the
     * cooperative assignor lets it keep some partitions without handing them to {@code onPartitionsAssigned} again.
     * Those must be owned again, and the records it read and skipped while fenced processed, never dropped.
     */
    @Test
    void partitionsAFencedNodeKeepsInTheNextRebalanceAreOwnedAgainAndNoneOfTheirRecordsIsDropped() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "kept";
        String brokers = broker.getBrokersAsString();
        NodeWithSilencedHeartbeat.SILENT.set(false);
        try (ClusterNode a = ClusterNode.start("A", brokers, topic, store, new Class<?>[] {NodeWithSilencedHeartbeat.class,
                TestMembers.class}); ClusterNode b = ClusterNode.start("B", brokers, topic, store)) {
            await().atMost(WAIT).until(() -> a.isActive() && b.isActive() && !a.member().getOwnedPartitions().isEmpty()
                    && a.member().getOwnedPartitions().size() + b.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            NodeWithSilencedHeartbeat.SILENT.set(true);
            await().atMost(WAIT).until(() -> a.member().getFencedCount() > 0 && a.member().getOwnedPartitions().isEmpty());
            // a device on every partition; their first readings reach A's partitions while A is fenced
            List<UUID> devices = new ArrayList<>();
            while (devices.stream().map(FencingIntegrationTest::partition).distinct().count() < ClusterNode.PARTITIONS) {
                devices.add(UUID.randomUUID());
            }
            for (UUID device : devices) {
                b.router().send(ClusterTestApp.DEVICE, device, new Reading(1)).get(30, TimeUnit.SECONDS);
            }
            long rebalances = a.member().getRebalanceCount();
            try (ClusterNode c = ClusterNode.start("C", brokers, topic, store)) {
                await().atMost(WAIT).until(() -> !c.member().getOwnedPartitions().isEmpty()
                        && a.member().getRebalanceCount() >= rebalances + 2);
                NodeWithSilencedHeartbeat.SILENT.set(false);
                await().atMost(WAIT).untilAsserted(() -> {
                    Set<Integer> ofA = a.member().getOwnedPartitions();
                    Set<Integer> ofB = b.member().getOwnedPartitions();
                    Set<Integer> ofC = c.member().getOwnedPartitions();
                    assertThat(ofA).as("partitions A owns again").isNotEmpty();
                    Set<Integer> all = new TreeSet<>(ofA);
                    all.addAll(ofB);
                    all.addAll(ofC);
                    assertThat(all).as("every partition owned, by A %s, B %s, C %s", ofA, ofB, ofC).hasSize(ClusterNode.PARTITIONS);
                    assertThat(ofA.size() + ofB.size() + ofC.size()).as("each by one node").isEqualTo(ClusterNode.PARTITIONS);
                });
                for (UUID device : devices) {
                    b.router().send(ClusterTestApp.DEVICE, device, new Reading(2)).get(30, TimeUnit.SECONDS);
                }
                await().atMost(WAIT).untilAsserted(() -> {
                    for (UUID device : devices) {
                        assertThat(store.readings(device).stream().map(ReadingStore.Processed::seq).distinct().toList())
                                .as("readings of %s, partition %d", device, partition(device))
                                .containsExactly(1, 2);
                    }
                });
                log.info("A fenced {} time(s), owns {} again; B owns {}, C owns {}", a.member().getFencedCount(),
                        a.member().getOwnedPartitions(), b.member().getOwnedPartitions(), c.member().getOwnedPartitions());
            }
        } finally {
            NodeWithSilencedHeartbeat.SILENT.set(false);
        }
    }

    /**
     * Sends a reading to every device through the node and waits until the store has them all: a send completes once
     * Kafka has it, not once it is stored.
     */
    private static void writeEveryDevice(ClusterNode node, ReadingStore store, List<UUID> devices, int seq) throws Exception {
        for (UUID device : devices) {
            node.router().send(ClusterTestApp.DEVICE, device, new Reading(seq)).get(30, TimeUnit.SECONDS);
        }
        awaitWritten(store, devices, seq);
    }

    private static void awaitWritten(ReadingStore store, List<UUID> devices, int seq) {
        await().atMost(WAIT).until(() -> devices.stream().allMatch(device -> store.writes(device).stream()
                .anyMatch(write -> write.seq() == seq)));
    }

    private static void awaitOwnsEveryPartition(ClusterNode node) {
        await().atMost(WAIT).until(() -> node.isActive() && node.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
    }

    /** @return a device of every partition */
    private static List<UUID> onePerPartition() {
        List<UUID> devices = new ArrayList<>();
        while (devices.size() < ClusterNode.PARTITIONS) {
            UUID device = UUID.randomUUID();
            if (devices.stream().noneMatch(other -> partition(other) == partition(device))) {
                devices.add(device);
            }
        }
        return devices;
    }

    private static List<ReadingStore.Journaled> linesOf(String node, Path journal) {
        return ReadingStore.readJournalLines(journal).stream().filter(line -> line.node().equals(node)).toList();
    }

    static int partition(UUID device) {
        return EntityPartitioner.partition(device, ClusterNode.PARTITIONS);
    }

    private static void signal(String signal, Process process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s %d", signal, process.pid()).isZero();
    }
}
