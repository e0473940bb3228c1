package io.tbactors.benchmarks.support;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

/**
 * Publishes {@link SideMetrics} of each measurement iteration as JMH secondary results. Runs inside the forked JVM,
 * where the benchmark recorded them.
 */
public final class SideMetricsProfiler implements InternalProfiler {

    @Override
    public String getDescription() {
        return "Round-trip percentiles and heap bytes per actor recorded by the TB Actors benchmarks";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        SideMetrics.reset();
    }

    @Override
    @SuppressWarnings("rawtypes") // the JMH interface declares the raw type
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            SideMetrics.reset();
            return List.of();
        }
        return SideMetrics.drain();
    }
}
