package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.BatchingConsumer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.Supplier;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * The limit: the producers hand each message over through a bare queue to as many consumer threads as the runtimes
 * have dispatcher threads (one when there is one actor, as one actor runs on one thread at a time). Actor {@code i} is
 * served by consumer {@code i % consumers}, which keeps its count, so the per-message work is the same as a counting
 * actor's, with no mailbox, scheduling or turn. The queue is the best handoff between these threads we know: JCTools'
 * {@link MpscUnboundedArrayQueue} (a producer pays one compare-and-set on its index and a plain store into a chunk;
 * producer and consumer fields on cache lines of their own), which the consumer drains in batches
 * ({@link BatchingConsumer}) after parking while it was empty, so it takes a backlog and does not fight the producer
 * for every element. See BENCHMARKS.md, "The limit".
 */
final class BareQueueThroughputTarget implements ThroughputTarget {

    /** Elements per chunk of the limit's queue: a round of 1M messages to one consumer links about 120 chunks. */
    static final int CHUNK = 8192;

    private final RoundCounter[] counters;
    private final Queue<RoundCounter>[] queues;
    private final List<BatchingConsumer<RoundCounter>> consumers = new ArrayList<>();

    BareQueueThroughputTarget(Shape shape, Completion completion, int threads) {
        this(shape, completion, threads, () -> new MpscUnboundedArrayQueue<>(CHUNK), true);
    }

    /** @param queueFactory makes each consumer's queue, polled one element at a time ({@link MailboxQueueBenchmark}) */
    BareQueueThroughputTarget(Shape shape, Completion completion, int threads, Supplier<Queue<RoundCounter>> queueFactory) {
        this(shape, completion, threads, queueFactory, false);
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of queues: indexed on every send
    private BareQueueThroughputTarget(Shape shape, Completion completion, int threads, Supplier<Queue<RoundCounter>> queueFactory,
                                      boolean drainInBatches) {
        counters = new RoundCounter[shape.actors()];
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new RoundCounter(shape.messagesPerActor(), completion);
        }
        int consumerCount = Math.min(shape.actors(), threads);
        queues = new Queue[consumerCount];
        for (int c = 0; c < consumerCount; c++) {
            queues[c] = queueFactory.get();
            consumers.add(new BatchingConsumer<>("limit-consumer-" + c, queues[c], RoundCounter::receive, drainInBatches));
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
