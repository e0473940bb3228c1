package io.tbactors.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The benchmark's queue candidate must be a correct queue, or its figures mean nothing. */
class UnpaddedMpscQueueTest {

    private static final int PER_PRODUCER = 200_000;

    @Test
    void anEmptyQueuePollsNullAndRefusesNull() {
        UnpaddedMpscQueue<String> queue = new UnpaddedMpscQueue<>();
        assertThat(queue.poll()).isNull();
        assertThat(queue.isEmpty()).isTrue();
        queue.offer("a");
        queue.offer("b");
        assertThat(queue.isEmpty()).isFalse();
        assertThat(queue.poll()).isEqualTo("a");
        assertThat(queue.poll()).isEqualTo("b");
        assertThat(queue.poll()).isNull();
        assertThatThrownBy(() -> queue.offer(null)).isInstanceOf(NullPointerException.class);
    }

    /** Two producers and a consumer polling while they offer: every element once, each producer's in its order. */
    @Test
    void concurrentProducersLoseNothingAndKeepTheirOrder() throws Exception {
        UnpaddedMpscQueue<Long> queue = new UnpaddedMpscQueue<>();
        ExecutorService producers = Executors.newFixedThreadPool(2);
        CountDownLatch start = new CountDownLatch(1);
        try {
            Future<?>[] done = new Future<?>[2];
            for (int p = 0; p < 2; p++) {
                long producer = p;
                done[p] = producers.submit(() -> {
                    start.await();
                    for (long i = 0; i < PER_PRODUCER; i++) {
                        queue.offer(producer * PER_PRODUCER * 10 + i);
                    }
                    return null;
                });
            }
            start.countDown();
            long[] next = new long[2];
            int received = 0;
            while (received < 2 * PER_PRODUCER) {
                Long element = queue.poll();
                if (element == null) {
                    Thread.onSpinWait();
                    continue;
                }
                int producer = (int) (element / (PER_PRODUCER * 10L));
                assertThat(element % (PER_PRODUCER * 10L)).as("producer %d's next element", producer).isEqualTo(next[producer]);
                next[producer]++;
                received++;
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(next).containsExactly(PER_PRODUCER, PER_PRODUCER);
            assertThat(queue.poll()).isNull();
            assertThat(queue.isEmpty()).isTrue();
        } finally {
            producers.shutdownNow();
        }
    }
}
