package io.tbactors.benchmarks.report;

/**
 * One line of the report: a scenario measured on our runtime, on Pekko and, where it applies, at the bare-queue
 * limit, with the target the issue sets for it.
 *
 * @param scenario what was measured
 * @param unit the unit of the three figures
 * @param direction whether a higher or a lower figure is better
 * @param ours our runtime's figure, null when it was not measured
 * @param pekko Pekko's figure, null when it was not measured
 * @param limit the bare-queue limit, null when there is none
 * @param target what ours must reach, {@link Target#NONE} when nothing is asked
 */
public record Row(String scenario, String unit, Direction direction, Double ours, Double pekko, Double limit, Target target) {

    /** Whether a higher or a lower figure is better. */
    public enum Direction {
        /** Throughput, rates. */
        HIGHER_IS_BETTER,
        /** Latency, bytes. */
        LOWER_IS_BETTER
    }

    /** @return ours divided by Pekko's, or null when either is missing */
    public Double ratio() {
        return ours == null || pekko == null || pekko == 0 ? null : ours / pekko;
    }

    /**
     * @return how close ours comes to the limit: 1.0 is at the limit; ours over limit for rates, limit over ours for
     *     latencies; null when there is no limit
     */
    public Double shareOfLimit() {
        if (ours == null || limit == null || ours == 0 || limit == 0) {
            return null;
        }
        return direction == Direction.HIGHER_IS_BETTER ? ours / limit : limit / ours;
    }

    /** @return whether every figure the target needs was measured */
    public boolean complete() {
        return ours != null && pekko != null && (target.minShareOfLimit() == null || limit != null);
    }

    /** @return the verdict: empty without a target, {@code n/a} when a figure is missing, else met or MISSED */
    public String verdict() {
        if (target == Target.NONE) {
            return "";
        }
        if (!complete()) {
            return "n/a";
        }
        return target.isMetBy(ratio(), shareOfLimit()) ? "met" : "MISSED";
    }
}
