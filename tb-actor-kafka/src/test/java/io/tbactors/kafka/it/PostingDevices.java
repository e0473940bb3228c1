package io.tbactors.kafka.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.kafka.TbClusterSendOutcomeUnknownException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/** What the devices of a test were told, and how often they had to resend. */
final class PostingDevices {

    final List<UUID> ids;
    final int readingsEach;
    final Map<UUID, Set<Integer>> acknowledged = new ConcurrentHashMap<>();
    final AtomicInteger acks = new AtomicInteger();
    final AtomicInteger resent = new AtomicInteger();
    final AtomicInteger outcomeUnknown = new AtomicInteger();
    /** For open-ended posting: how many more readings each device posts once told to finish, or -1 until then. */
    private volatile int moreBeforeTheEnd = -1;

    /**
     * @param count the devices
     * @param readingsEach the readings each device posts, or {@link Integer#MAX_VALUE} to post until {@link #finish}
     */
    PostingDevices(int count, int readingsEach) {
        this.ids = IntStream.range(0, count).mapToObj(i -> UUID.randomUUID()).toList();
        this.readingsEach = readingsEach;
    }

    /**
     * Ends open-ended posting: each device posts this many more readings after the one it is at, then stops, so the
     * load is known to go on past the moment this is called.
     *
     * @param more readings each device still posts
     */
    void finish(int more) {
        moreBeforeTheEnd = more;
    }

    /** Posts every device's readings in order through the node, resending a reading until it is acknowledged. */
    List<Future<?>> post(ExecutorService senders, ClusterNode through) {
        return post(senders, seq -> through, false);
    }

    /**
     * Posts every device's readings in order, resending a reading until it is acknowledged.
     *
     * @param senders the threads that post
     * @param through the node a reading is posted to, by its sequence number
     * @param request whether to wait for the owner to have stored it ({@code request}) rather than for Kafka ({@code send})
     * @return the devices' posting
     */
    List<Future<?>> post(ExecutorService senders, IntFunction<ClusterNode> through, boolean request) {
        List<Future<?>> posting = new ArrayList<>();
        for (UUID device : ids) {
            posting.add(senders.submit(() -> {
                int last = readingsEach;
                for (int seq = 1; seq <= last; seq++) {
                    int more = moreBeforeTheEnd;
                    if (more >= 0 && last == Integer.MAX_VALUE) {
                        last = seq + more;
                    }
                    while (!send(through.apply(seq), device, seq, request)) {
                        resent.incrementAndGet();
                        TimeUnit.MILLISECONDS.sleep(100);
                    }
                }
                return null;
            }));
        }
        return posting;
    }

    private boolean send(ClusterNode through, UUID device, int seq, boolean request) throws InterruptedException {
        try {
            Reading reading = new Reading(seq);
            (request ? through.router().request(ClusterTestApp.DEVICE, device, reading, Duration.ofSeconds(20))
                    : through.router().send(ClusterTestApp.DEVICE, device, reading)).get(30, TimeUnit.SECONDS);
            acknowledged.computeIfAbsent(device, d -> ConcurrentHashMap.newKeySet()).add(seq);
            acks.incrementAndGet();
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TbClusterSendOutcomeUnknownException) {
                outcomeUnknown.incrementAndGet();
            }
            return false;
        } catch (RuntimeException | TimeoutException e) {
            return false;
        }
    }

    /**
     * Asserts that every acknowledged reading was stored and that each device's readings were first stored in
     * order; returns the duplicates.
     *
     * @param stored each device's readings in the order they were stored, all nodes together
     */
    int assertEveryAcknowledgedReadingStoredInOrder(Function<UUID, List<Integer>> stored) {
        int duplicates = 0;
        for (UUID device : ids) {
            List<Integer> seqs = stored.apply(device);
            assertThat(seqs).as("stored readings of %s", device).containsAll(acknowledged.getOrDefault(device, Set.of()));
            List<Integer> firstTimes = seqs.stream().distinct().toList();
            assertThat(firstTimes).as("readings of %s in the order first stored", device).isSorted();
            duplicates += seqs.size() - firstTimes.size();
        }
        return duplicates;
    }
}
