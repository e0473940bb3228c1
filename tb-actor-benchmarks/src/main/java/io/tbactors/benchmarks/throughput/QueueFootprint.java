package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.HeapMeter;
import java.lang.ref.Reference;
import java.util.Locale;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * What one mailbox queue costs on the heap once a message has passed through it (the state of an actor that was told
 * something and is idle again), for each queue {@link MailboxQueueBenchmark} compares: 200,000 such queues are kept
 * alive and the heap is read before and after. A figure per queue, not a benchmark:
 * {@code java -cp tb-actor-benchmarks/target/benchmarks.jar io.tbactors.benchmarks.throughput.QueueFootprint}.
 */
public final class QueueFootprint {

    private static final int QUEUES = 200_000;

    private QueueFootprint() {
    }

    /** @param args ignored */
    public static void main(String[] args) {
        for (String name : MailboxQueueBenchmark.QUEUES) {
            Supplier<Queue<RoundCounter>> factory = MailboxQueueBenchmark.queueFactory(name);
            RoundCounter element = new RoundCounter(1, null);
            Object[] kept = new Object[QUEUES];
            long before = HeapMeter.usedAfterGc();
            for (int i = 0; i < QUEUES; i++) {
                Queue<RoundCounter> queue = factory.get();
                queue.offer(element);
                if (queue.poll() != element) {
                    throw new IllegalStateException(name + " lost the element");
                }
                kept[i] = queue;
            }
            long after = HeapMeter.usedAfterGc();
            System.out.printf(Locale.ROOT, "%-14s %8.1f B per queue%n", name, (after - before) / (double) QUEUES);
            Reference.reachabilityFence(kept);
        }
    }
}
