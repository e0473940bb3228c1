package io.tbactors.benchmarks.pingpong;

import io.tbactors.benchmarks.support.Impl;
import io.tbactors.benchmarks.support.SideMetrics;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Request/response latency between two actors. The requester times every round trip itself (from sending the
 * request to processing the response), so the benchmark thread's own wake-ups stay out of the figures; the
 * percentiles are published as the secondary results {@code rtt.p50} and {@code rtt.p99} (microseconds), the
 * primary score is the mean round trip.
 *
 * <p>The fork's heap is touched in full before the benchmark starts ({@code -XX:+AlwaysPreTouch}). Without it the
 * first write to each 4 KB page of a fresh heap takes a page fault of one to two microseconds; a runtime that allocates
 * 56 B per round trip pays one about every 73 round trips, one that allocates 216 B about every 19, so both p99s
 * would be the fault's time and tell nothing about the runtime. A server's heap is touched within its first
 * collections; the pre-touched fork measures that steady state, the same way for every implementation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@OperationsPerInvocation(PingPongBenchmark.ROUND_TRIPS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx6g", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch"})
public class PingPongBenchmark {

    /** Round trips per invocation. */
    public static final int ROUND_TRIPS = 10_000;

    /**
     * Which implementation: ours or Pekko. No bare-queue limit here: both runtimes run a ping-pong mostly on one
     * dispatcher thread (the responder's turn is queued on the sending worker's own deque), so a handoff between two
     * threads would be no floor for them.
     */
    @Param({Impl.TB, Impl.PEKKO})
    public String impl;

    private PingPong pingPong;

    /** Creates the two parties. */
    @Setup(Level.Trial)
    public void setUp() {
        pingPong = switch (impl) {
            case Impl.TB -> new TbPingPong();
            case Impl.PEKKO -> new PekkoPingPong();
            default -> throw Impl.unknown(impl);
        };
    }

    /** A series of round trips, back to back. */
    @Benchmark
    public void roundTrips() {
        pingPong.roundTrips(ROUND_TRIPS, SideMetrics.latencies());
    }

    /** Stops both parties. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (pingPong != null) {
            pingPong.close();
        }
    }
}
