package io.tbactors.benchmarks.support;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

/**
 * Measures where the CPUs are ({@link PlacementProbe}) right before and right after every measured iteration, and
 * publishes both as JMH secondary results ({@value #BEFORE} and {@value #AFTER}, one value per iteration in the JSON's
 * {@code rawData}). {@code rounds.sh} adds it to every fork ({@code -prof
 * io.tbactors.benchmarks.support.PlacementProfiler}) and counts an iteration only when both probes found the CPUs
 * where it asks for. The probes run outside the measured time, while the benchmark's threads wait.
 */
public final class PlacementProfiler implements InternalProfiler {

    /** The round trip before the iteration, in nanoseconds. */
    public static final String BEFORE = "placement.before";
    /** The round trip after the iteration, in nanoseconds. */
    public static final String AFTER = "placement.after";

    private long before;

    @Override
    public String getDescription() {
        return "A cache line's round trip between two threads before and after each measured iteration";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() == IterationType.MEASUREMENT) {
            before = PlacementProbe.roundTripNanos();
        }
    }

    @Override
    @SuppressWarnings("rawtypes") // the JMH interface declares the raw type
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            return List.of();
        }
        long after = PlacementProbe.roundTripNanos();
        return List.of(new ScalarResult(BEFORE, before, "ns", AggregationPolicy.AVG),
                new ScalarResult(AFTER, after, "ns", AggregationPolicy.AVG));
    }
}
