package io.tbactors.benchmarks.support;

/** Names of the implementations a benchmark compares, as they appear in the {@code impl} parameter. */
public final class Impl {

    /** Our runtime, tb-actor-core. */
    public static final String TB = "tb";

    /**
     * Our runtime with its dispatcher's padded mailboxes ({@code DefaultTbActorSystem.setPaddedMailboxes}): measured
     * beside {@link #TB} in the throughput rows, where a few actors take every message.
     */
    public static final String TB_PADDED = "tb-padded";

    /** Apache Pekko classic actors. */
    public static final String PEKKO = "pekko";

    /** The bare-queue handoff between the same threads, with no actor machinery. */
    public static final String LIMIT = "limit";

    private Impl() {
    }

    /**
     * @param impl a parameter value
     * @return an exception naming the allowed values
     */
    public static IllegalArgumentException unknown(String impl) {
        return new IllegalArgumentException("Unknown impl '" + impl + "'; allowed: " + TB + ", " + TB_PADDED + ", " + PEKKO + ", " + LIMIT);
    }
}
