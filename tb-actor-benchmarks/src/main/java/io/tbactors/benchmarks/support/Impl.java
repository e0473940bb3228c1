package io.tbactors.benchmarks.support;

/** Names of the implementations a benchmark compares, as they appear in the {@code impl} parameter. */
public final class Impl {

    /** Our runtime, tb-actor-core. */
    public static final String TB = "tb";

    /** Apache Pekko classic actors. */
    public static final String PEKKO = "pekko";

    /** The bare-queue handoff between the same threads, with no actor machinery. */
    public static final String LIMIT = "limit";

    /**
     * Our runtime on a dispatcher with padded mailboxes ({@code DefaultTbActorSystem.setPaddedMailboxes}), a runtime of
     * its own in the throughput rows only ({@code -p impl=tb-padded}; not in the default list, so the report's runner
     * does not run it).
     */
    public static final String TB_PADDED = "tb-padded";

    private Impl() {
    }

    /**
     * @param impl a parameter value
     * @return an exception naming the allowed values
     */
    public static IllegalArgumentException unknown(String impl) {
        return new IllegalArgumentException("Unknown impl '" + impl + "'; allowed: " + TB + ", " + PEKKO + ", " + LIMIT);
    }
}
