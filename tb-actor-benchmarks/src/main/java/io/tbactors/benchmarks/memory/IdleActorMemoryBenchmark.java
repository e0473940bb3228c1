package io.tbactors.benchmarks.memory;

import io.tbactors.benchmarks.support.HeapMeter;
import io.tbactors.benchmarks.support.Impl;
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
 * Heap cost of an idle actor: the live heap after full collections with {@code actors} idle actors, minus the live
 * heap of the same runtime before they were created, divided by {@code actors}. Published as the secondary result
 * {@code bytes.per.actor}; the primary score is the time to create them (a single shot, so only indicative).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx6g", "-XX:+UseG1GC"})
public class IdleActorMemoryBenchmark {

    /** Idle actors created per iteration. */
    @Param({"1000000"})
    public int actors;

    /** Which implementation: ours or Pekko. */
    @Param({Impl.TB, Impl.PEKKO})
    public String impl;

    private IdleActors idleActors;
    private long baseline;

    /** A fresh runtime, and its live heap before any idle actor. */
    @Setup(Level.Iteration)
    public void setUp() {
        idleActors = switch (impl) {
            case Impl.TB -> new TbIdleActors();
            case Impl.PEKKO -> new PekkoIdleActors();
            default -> throw Impl.unknown(impl);
        };
        baseline = HeapMeter.usedAfterGc();
    }

    /** Creates the idle actors and waits until all have started. */
    @Benchmark
    public void createIdleActors() {
        idleActors.create(actors);
    }

    /** Weighs the idle actors, then stops the runtime. */
    @TearDown(Level.Iteration)
    public void tearDown() {
        long used = HeapMeter.usedAfterGc();
        SideMetrics.put(SideMetrics.BYTES_PER_ACTOR, (used - baseline) / (double) actors, "B/actor");
        idleActors.close();
    }
}
