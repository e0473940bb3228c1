package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import lombok.extern.slf4j.Slf4j;
import org.junit.jupiter.api.Test;

/**
 * A third node joins while devices post numbered readings through the two running nodes and wait, for each, until its
 * owner has stored it: partitions move to the newcomer mid-load, and every reading answered is stored, first stored in
 * order per device; the readings processed twice are counted and reported.
 */
@Slf4j
class ThirdNodeIntegrationTest extends BrokerPerClass {

    private static final Duration WAIT = Duration.ofSeconds(120);


    @Test
    void aThirdNodeJoiningUnderLoadTakesPartitionsAndEveryAnsweredReadingIsStoredInOrder() throws Exception {
        ReadingStore store = new ReadingStore();
        String topic = "third";
        PostingDevices devices = new PostingDevices(16, Integer.MAX_VALUE);
        int readingsAfterJoin = 40;
        ExecutorService senders = Executors.newFixedThreadPool(16);
        try (ClusterNode a = ClusterNode.start("A", broker.getBrokersAsString(), topic, store, "test.processing-delay=2ms");
             ClusterNode b = ClusterNode.start("B", broker.getBrokersAsString(), topic, store, "test.processing-delay=2ms")) {
            await().atMost(WAIT).until(() -> a.isActive() && b.isActive() && !a.member().getOwnedPartitions().isEmpty()
                    && a.member().getOwnedPartitions().size() + b.member().getOwnedPartitions().size() == ClusterNode.PARTITIONS);
            List<ClusterNode> through = List.of(a, b);
            List<Future<?>> posting = devices.post(senders, seq -> through.get(seq % 2), true);
            await().atMost(WAIT).until(() -> devices.acks.get() >= 16 * 30);
            int beforeJoin = devices.acks.get();

            try (ClusterNode c = ClusterNode.start("C", broker.getBrokersAsString(), topic, store, "test.processing-delay=2ms")) {
                // the devices post until the newcomer owns partitions, and then some more each
                await().atMost(WAIT).until(() -> c.isActive() && !c.member().getOwnedPartitions().isEmpty());
                int atJoin = devices.acks.get();
                devices.finish(readingsAfterJoin);
                for (Future<?> future : posting) {
                    future.get(3, TimeUnit.MINUTES);
                }
                assertThat(devices.acks.get() - atJoin).as("readings answered after C owned partitions")
                        .isGreaterThanOrEqualTo(devices.ids.size() * readingsAfterJoin);
                assertThat(c.member().getOwnedPartitions().size() + a.member().getOwnedPartitions().size()
                        + b.member().getOwnedPartitions().size()).isEqualTo(ClusterNode.PARTITIONS);

                Function<UUID, List<Integer>> stored = device -> store.readings(device).stream().map(ReadingStore.Processed::seq)
                        .toList();
                int duplicates = devices.assertEveryAcknowledgedReadingStoredInOrder(stored);
                long storedOnC = devices.ids.stream().flatMap(device -> store.readings(device).stream())
                        .filter(reading -> reading.node().equals("C")).count();
                assertThat(storedOnC).as("readings the newcomer stored").isPositive();
                log.info("Third node under load: {} readings answered ({} before C joined, {} when it owned partitions), {} stored by C, "
                        + "{} resent, {} duplicates", devices.acks.get(), beforeJoin, atJoin, storedOnC, devices.resent.get(), duplicates);
            }
        } finally {
            senders.shutdownNow();
        }
    }
}
