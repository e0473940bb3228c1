package io.tbactors.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a scenario must reach: bounds on ours / Pekko and a floor on the share of the limit; null bounds are not
 * checked.
 *
 * @param minRatio ours / Pekko must be at least this (rates)
 * @param maxRatio ours / Pekko must be at most this (latencies, bytes)
 * @param minShareOfLimit the share of the limit must be at least this
 */
public record Target(Double minRatio, Double maxRatio, Double minShareOfLimit) {

    /** No target. */
    public static final Target NONE = new Target(null, null, null);

    /**
     * @param ratio ours / Pekko
     * @param shareOfLimit the share of the limit, null when there is none
     * @return whether every bound holds
     */
    public boolean isMetBy(Double ratio, Double shareOfLimit) {
        boolean met = true;
        if (minRatio != null) {
            met = ratio != null && ratio >= minRatio;
        }
        if (maxRatio != null) {
            met &= ratio != null && ratio <= maxRatio;
        }
        if (minShareOfLimit != null) {
            met &= shareOfLimit != null && shareOfLimit >= minShareOfLimit;
        }
        return met;
    }

    /** @return the bounds as the table shows them, e.g. {@code ratio >= 2.00, share >= 0.80} */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (minRatio != null) {
            parts.add(String.format(Locale.ROOT, "ratio >= %.2f", minRatio));
        }
        if (maxRatio != null) {
            parts.add(String.format(Locale.ROOT, "ratio <= %.2f", maxRatio));
        }
        if (minShareOfLimit != null) {
            parts.add(String.format(Locale.ROOT, "share >= %.2f", minShareOfLimit));
        }
        return String.join(", ", parts);
    }
}
