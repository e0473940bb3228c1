package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.Impl;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.benchmarks.support.SideMetrics;
import java.util.concurrent.TimeUnit;
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
 * Time to push one round of messages through and see all of them processed. Each sample is one round of
 * {@code actors x messagesPerActor} messages (a million in every shape); the report turns the median round time
 * into messages per second. The report's runner warms the shape with 100K actors up for
 * {@link Shape#MANY_ACTORS_WARMUP_ITERATIONS} iterations (on JMH's own command line add {@code -wi 40} for it).
 *
 * <p>The fork's heap has one fixed size and is written in full before the first round ({@code -Xms2g -Xmx2g -Xmn1g
 * -XX:+AlwaysPreTouch}). On the virtual machines we measure on, the first write to a page of fresh heap costs tens of
 * microseconds; without these flags G1 keeps handing out never-touched regions while the rounds run (a round of 1M
 * messages allocates some 30 MB), and a row measured how fast the machine maps memory, at a rate that changed with
 * G1's sizing and the host's load: 4x slower and bimodal (BENCHMARKS.md, "Every heap page written before the first
 * round"). {@code rounds.sh} passes the same flags to every jar it runs ({@link #FORK_FLAGS}).
 *
 * <p>{@code -p impl=tb-padded} ({@link Impl#TB_PADDED}) runs ours with the dispatcher's padded mailboxes; it is not in
 * the default list of {@link #impl}, so the report's runner leaves it out, and {@code rounds.sh} runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = ThroughputBenchmark.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Xmn1g", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC"})
public class ThroughputBenchmark {

    /** The fork's JVM flags, as {@code rounds.sh} passes them to every jar (a test keeps the two the same). */
    public static final String FORK_FLAGS = "-Xms2g -Xmx2g -Xmn1g -XX:+AlwaysPreTouch -XX:+UseG1GC";

    /** Warm-up iterations of one second, for every shape but the many-actor one ({@link Shape#warmupIterations}). */
    public static final int WARMUP_ITERATIONS = 3;

    /** Actors x messages per actor per round. */
    @Param({"1x1000000", "10x100000", "1000x1000", "100000x10"})
    public String shape;

    /** Producer threads telling concurrently. */
    @Param({"1", "2"})
    public int producers;

    /** Which implementation: ours, Pekko, or the bare-queue limit. */
    @Param({Impl.TB, Impl.PEKKO, Impl.LIMIT})
    public String impl;

    private Shape workload;
    private Completion completion;
    private ThroughputTarget target;
    private Producers producerThreads;
    private long turnsAtIterationStart;
    private long roundsInIteration;

    /** Creates the actors and the producer threads. */
    @Setup(Level.Trial)
    public void setUp() {
        workload = Shape.parse(shape);
        if (Impl.TB_PADDED.equals(impl)) {
            // ours with padded mailboxes, apart from the switch below, whose lines ../shared/tb-original-bench patches
            completion = new Completion();
            target = new TbThroughputTarget(workload, completion, true);
            producerThreads = new Producers(producers);
            return;
        }
        completion = new Completion();
        target = switch (impl) {
            case Impl.TB -> new TbThroughputTarget(workload, completion);
            case Impl.PEKKO -> new PekkoThroughputTarget(workload, completion);
            case Impl.LIMIT -> new BareQueueThroughputTarget(workload, completion, Runtimes.dispatcherThreads());
            default -> throw Impl.unknown(impl);
        };
        producerThreads = new Producers(producers);
    }

    /** One round: every actor receives its share, and the round ends when the last actor counted its last one. */
    @Benchmark
    public void pushAndProcessAll() {
        producerThreads.runRound(target, workload, completion);
        roundsInIteration++;
    }

    /** Notes where the iteration starts, for the turns per message. */
    @Setup(Level.Iteration)
    public void startIteration() {
        turnsAtIterationStart = target.completedTurns();
        roundsInIteration = 0;
    }

    /**
     * Publishes the iteration's turns per message (ours only): how many messages a turn found waiting, which tells the
     * fast runs from the slow ones where many actors get few messages each (BENCHMARKS.md, "The 100K-actor rows
     * measured once G1 has settled").
     */
    @TearDown(Level.Iteration)
    public void endIteration() {
        long turns = target.completedTurns();
        if (turns >= 0 && roundsInIteration > 0) {
            double messages = (double) roundsInIteration * workload.totalMessages();
            SideMetrics.put(SideMetrics.TURNS_PER_MESSAGE, (turns - turnsAtIterationStart) / messages, "turns/msg");
        }
    }

    /** Stops the producers and the actors. */
    @TearDown(Level.Trial)
    public void tearDown() {
        Producers.closeBoth(producerThreads, target);
    }
}
