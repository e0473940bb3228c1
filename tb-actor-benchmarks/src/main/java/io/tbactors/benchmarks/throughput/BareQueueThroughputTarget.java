package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.BatchingConsumer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * The physical limit: the producers hand each message over through a bare {@link ConcurrentLinkedQueue} to as many
 * consumer threads as the runtimes have dispatcher threads (one when there is one actor, as one actor runs on one
 * thread at a time). Actor {@code i} is served by consumer {@code i % consumers}, which keeps its count, so the
 * per-message work is the same as a counting actor's, with no mailbox, scheduling or turn. The consumers drain in
 * batches ({@link BatchingConsumer}), the best case of the handoff.
 */
final class BareQueueThroughputTarget implements ThroughputTarget {

    private final RoundCounter[] counters;
    private final Queue<RoundCounter>[] queues;
    private final List<BatchingConsumer<RoundCounter>> consumers = new ArrayList<>();

    BareQueueThroughputTarget(Shape shape, Completion completion, int threads) {
        this(shape, completion, threads, ConcurrentLinkedQueue::new);
    }

    /** @param queueFactory makes each consumer's queue ({@link MailboxQueueBenchmark} compares several) */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of queues: indexed on every send
    BareQueueThroughputTarget(Shape shape, Completion completion, int threads, Supplier<Queue<RoundCounter>> queueFactory) {
        counters = new RoundCounter[shape.actors()];
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new RoundCounter(shape.messagesPerActor(), completion);
        }
        int consumerCount = Math.min(shape.actors(), threads);
        queues = new Queue[consumerCount];
        for (int c = 0; c < consumerCount; c++) {
            queues[c] = queueFactory.get();
            consumers.add(new BatchingConsumer<>("limit-consumer-" + c, queues[c], RoundCounter::receive));
        }
    }

    @Override
    public void tell(int actor) {
        queues[actor % queues.length].offer(counters[actor]);
    }

    @Override
    public void close() {
        consumers.forEach(BatchingConsumer::close);
    }
}
