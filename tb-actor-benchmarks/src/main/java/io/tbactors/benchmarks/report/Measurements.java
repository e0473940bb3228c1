package io.tbactors.benchmarks.report;

import io.tbactors.benchmarks.creation.ActorCreationBenchmark;
import io.tbactors.benchmarks.support.SideMetrics;
import io.tbactors.benchmarks.throughput.Shape;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The figures of one run, by scenario and implementation, in the report's units: messages per second, actors per
 * second, microseconds, bytes per actor. Rates come from the median sample, as the targets compare medians.
 */
public final class Measurements {

    /** Round-trip median, microseconds. */
    public static final String PING_PONG_P50 = "ping-pong p50";

    /** Round-trip 99th percentile, microseconds. */
    public static final String PING_PONG_P99 = "ping-pong p99";

    /** Children created per second under one parent. */
    public static final String CREATION = "creation";

    /** Heap bytes per idle actor. */
    public static final String MEMORY = "memory";

    private static final double MEDIAN = 50;

    private final Map<String, Double> values = new HashMap<>();
    private int idleActors;

    /**
     * @param shape a throughput shape parameter, e.g. {@code 1000x1000}
     * @param producers producer threads
     * @return the scenario key
     */
    public static String throughput(String shape, int producers) {
        return "throughput " + shape + " p" + producers;
    }

    /**
     * @param scenario a scenario key
     * @param impl an implementation name
     * @param value its figure
     * @return this
     */
    public Measurements put(String scenario, String impl, double value) {
        values.put(scenario + '|' + impl, value);
        return this;
    }

    /**
     * @param scenario a scenario key
     * @param impl an implementation name
     * @return its figure, or null when it was not measured
     */
    public Double get(String scenario, String impl) {
        return values.get(scenario + '|' + impl);
    }

    /** @return idle actors per runtime in the memory scenario, 0 when it did not run */
    public int idleActors() {
        return idleActors;
    }

    /**
     * @param count idle actors per runtime in the memory scenario
     * @return this
     */
    public Measurements idleActors(int count) {
        this.idleActors = count;
        return this;
    }

    /**
     * @param results what JMH returned
     * @return the figures
     */
    public static Measurements from(Collection<RunResult> results) {
        Measurements m = new Measurements();
        for (RunResult result : results) {
            BenchmarkParams params = result.getParams();
            String benchmark = params.getBenchmark();
            String impl = params.getParam("impl");
            String type = benchmark.substring(0, benchmark.lastIndexOf('.'));
            type = type.substring(type.lastIndexOf('.') + 1);
            switch (type) {
                case "ThroughputBenchmark" -> {
                    String shape = params.getParam("shape");
                    double seconds = medianSeconds(result);
                    m.put(throughput(shape, Integer.parseInt(params.getParam("producers"))), impl,
                            Shape.parse(shape).totalMessages() / seconds);
                }
                case "PingPongBenchmark" -> {
                    putSecondary(m, PING_PONG_P50, impl, result, SideMetrics.RTT_P50);
                    putSecondary(m, PING_PONG_P99, impl, result, SideMetrics.RTT_P99);
                }
                case "ActorCreationBenchmark" -> m.put(CREATION, impl, ActorCreationBenchmark.CHILDREN / medianSeconds(result));
                case "IdleActorMemoryBenchmark" -> {
                    putSecondary(m, MEMORY, impl, result, SideMetrics.BYTES_PER_ACTOR);
                    m.idleActors(Integer.parseInt(params.getParam("actors")));
                }
                default -> {
                    // a benchmark the report does not know: it is in the JSON only
                }
            }
        }
        return m;
    }

    private static double medianSeconds(RunResult result) {
        double median = result.getPrimaryResult().getStatistics().getPercentile(MEDIAN);
        return median * secondsPer(result.getParams().getTimeUnit());
    }

    private static double secondsPer(TimeUnit unit) {
        return unit.toNanos(1) / 1e9;
    }

    private static void putSecondary(Measurements m, String scenario, String impl, RunResult result, String label) {
        Result<?> secondary = result.getSecondaryResults().get(label);
        if (secondary != null) {
            m.put(scenario, impl, secondary.getScore());
        }
    }
}
