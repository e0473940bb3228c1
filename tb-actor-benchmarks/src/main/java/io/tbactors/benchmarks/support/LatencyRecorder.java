package io.tbactors.benchmarks.support;

import java.util.Arrays;

/**
 * Raw latency samples of one measurement iteration, written by one logical writer at a time (an actor, whose turns
 * are ordered by its runtime) and read after the writer is done. Samples past the capacity are dropped.
 */
public final class LatencyRecorder {

    private final long[] samples;
    private int count;

    /** @param capacity the most samples kept per iteration */
    public LatencyRecorder(int capacity) {
        this.samples = new long[capacity];
    }

    /** @param nanos one round trip */
    public void record(long nanos) {
        if (count < samples.length) {
            samples[count++] = nanos;
        }
    }

    /** @return how many samples were kept */
    public int count() {
        return count;
    }

    /** @return the kept samples, sorted ascending, as a new array */
    public long[] sortedCopy() {
        long[] copy = Arrays.copyOf(samples, count);
        Arrays.sort(copy);
        return copy;
    }

    /** Forgets every sample. */
    public void reset() {
        count = 0;
    }

    /**
     * Nearest-rank percentile: the smallest sample such that at least {@code percentile} percent of the samples are
     * less than or equal to it.
     *
     * @param sorted samples in ascending order, not empty
     * @param percentile from 0 (exclusive) to 100
     * @return the sample at that rank
     */
    public static long percentile(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("No samples");
        }
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("Percentile must be in (0, 100], got " + percentile);
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
