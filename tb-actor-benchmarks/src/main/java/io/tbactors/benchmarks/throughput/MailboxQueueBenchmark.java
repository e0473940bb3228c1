package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.Runtimes;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jctools.queues.MpscLinkedQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Which queue a mailbox should be made of: the bare-queue limit of {@link ThroughputBenchmark} (producers hand every
 * message through a queue to a consumer thread that counts it, no actor runtime at all) with the queue as a
 * parameter: the JDK's {@link ConcurrentLinkedQueue}, which the mailbox uses, against JCTools' multi-producer
 * single-consumer queues, which only a single consumer may poll (a mailbox has one: the turn's holder, and after the
 * actor is destroyed whoever drains). Where few actors get many messages the queue's handoff is most of a message's
 * cost, so these shapes only; the ratio to {@code clq} in one run bounds what swapping the mailbox's queue could
 * gain. Not part of the report run; run it with
 * {@code java -cp tb-actor-benchmarks/target/benchmarks.jar org.openjdk.jmh.Main MailboxQueueBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Xmn1g", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
public class MailboxQueueBenchmark {

    /** The queues this benchmark and {@link QueueFootprint} know. */
    static final java.util.List<String> QUEUES = java.util.List.of("clq", "mpsc-linked", "mpsc-array", "mpsc-xadd", "mpsc-unpadded");

    /** JCTools' array-chunked queues grow by chunks of this many elements. */
    static final int CHUNK = 1024;

    /** Actors x messages per actor per round. */
    @Param({"1x1000000", "10x100000"})
    public String shape;

    /** Producer threads telling concurrently. */
    @Param({"1", "2"})
    public int producers;

    /**
     * The queue: {@code clq} (the mailbox's), {@code mpsc-linked}, {@code mpsc-array} or {@code mpsc-xadd} (JCTools),
     * {@code mpsc-unpadded} ({@link UnpaddedMpscQueue}, a candidate of this project).
     */
    @Param({"clq", "mpsc-linked", "mpsc-array", "mpsc-xadd", "mpsc-unpadded"})
    public String queue;

    private Shape workload;
    private Completion completion;
    private ThroughputTarget target;
    private Producers producerThreads;

    /** Creates the consumers and the producer threads. */
    @Setup(Level.Trial)
    public void setUp() {
        workload = Shape.parse(shape);
        completion = new Completion();
        target = new BareQueueThroughputTarget(workload, completion, Runtimes.dispatcherThreads(), queueFactory(queue));
        producerThreads = new Producers(producers);
    }

    static Supplier<Queue<RoundCounter>> queueFactory(String name) {
        return switch (name) {
            case "clq" -> ConcurrentLinkedQueue::new;
            case "mpsc-linked" -> MpscLinkedQueue::new;
            case "mpsc-array" -> () -> new MpscUnboundedArrayQueue<>(CHUNK);
            case "mpsc-xadd" -> () -> new MpscUnboundedXaddArrayQueue<>(CHUNK);
            case "mpsc-unpadded" -> UnpaddedMpscQueue::new;
            default -> throw new IllegalArgumentException(
                    "Unknown queue '" + name + "': one of " + String.join(", ", QUEUES));
        };
    }

    /** One round: every message handed through and counted. */
    @Benchmark
    public void pushAndProcessAll() {
        producerThreads.runRound(target, workload, completion);
    }

    /** Stops the producers and the consumers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        Producers.closeBoth(producerThreads, target);
    }
}
