package io.tbactors.benchmarks.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Figures a benchmark measures besides its time (round-trip percentiles, bytes per actor), held for the current
 * iteration of the forked JVM and published by {@link SideMetricsProfiler} as JMH secondary results, so they land in
 * the JSON report next to the scores.
 */
public final class SideMetrics {

    /** Label of the median round trip, in microseconds. */
    public static final String RTT_P50 = "rtt.p50";

    /** Label of the 99th percentile round trip, in microseconds. */
    public static final String RTT_P99 = "rtt.p99";

    /**
     * Label of the turns per message of a throughput iteration (ours only): 1 when every message found its actor idle
     * and was scheduled alone, 1 / throughput when every turn was full.
     */
    public static final String TURNS_PER_MESSAGE = "turns.per.msg";

    /** Label of the heap bytes one idle actor costs. */
    public static final String BYTES_PER_ACTOR = "bytes.per.actor";

    private static final int LATENCY_CAPACITY = 4_000_000;
    private static final double NANOS_PER_MICRO = 1_000.0;

    private static final LatencyRecorder LATENCIES = new LatencyRecorder(LATENCY_CAPACITY);
    private static final Map<String, Scalar> SCALARS = new LinkedHashMap<>();

    private SideMetrics() {
    }

    /** @return the recorder of round trips for the current iteration */
    public static LatencyRecorder latencies() {
        return LATENCIES;
    }

    /**
     * @param label the metric's label
     * @param value its value for the current iteration
     * @param unit its unit
     */
    public static synchronized void put(String label, double value, String unit) {
        SCALARS.put(label, new Scalar(value, unit));
    }

    /** Forgets what the previous iteration measured. */
    public static synchronized void reset() {
        LATENCIES.reset();
        SCALARS.clear();
    }

    /** @return what this iteration measured, as JMH results averaged over the iterations */
    public static synchronized List<Result<?>> drain() {
        List<Result<?>> results = new ArrayList<>();
        if (LATENCIES.count() > 0) {
            long[] sorted = LATENCIES.sortedCopy();
            results.add(micros(RTT_P50, LatencyRecorder.percentile(sorted, 50)));
            results.add(micros(RTT_P99, LatencyRecorder.percentile(sorted, 99)));
        }
        SCALARS.forEach((label, scalar) -> results.add(new ScalarResult(label, scalar.value(), scalar.unit(), AggregationPolicy.AVG)));
        reset();
        return results;
    }

    private static Result<?> micros(String label, long nanos) {
        return new ScalarResult(label, nanos / NANOS_PER_MICRO, "us", AggregationPolicy.AVG);
    }

    private record Scalar(double value, String unit) {
    }
}
