package io.tbactors.benchmarks.throughput;

/**
 * A throughput workload: how many actors, and how many messages each receives per round.
 *
 * @param actors number of actors
 * @param messagesPerActor messages each actor receives per round
 */
public record Shape(int actors, int messagesPerActor) {

    /**
     * Warm-up iterations (one second each) of a shape with at least {@link #MANY_ACTORS} actors. Each message of such a
     * round goes to an idle actor whose mailbox is old, and the rounds run 1.5 to 2.2 times slower, on every runtime,
     * while G1 still collects the young generation at its initial size (with the benchmark's heap flags: every half
     * second for the first 17 s, then further apart as it grows it) and refines the cards those messages dirty eagerly;
     * the rounds mostly reach their settled speed after 20 to 30 s. With the young generation fixed ({@code -Xmn1g})
     * the second iteration is already as fast as the later ones. See BENCHMARKS.md, "The 100K-actor rows measured once
     * G1 has settled", which also shows a run whose fork did not settle in 40 s.
     */
    public static final int MANY_ACTORS_WARMUP_ITERATIONS = 40;

    /** From how many actors a shape counts as many-actor. */
    static final int MANY_ACTORS = 100_000;

    /** @return how many one-second warm-up iterations the report's runner gives this shape */
    public int warmupIterations() {
        return actors >= MANY_ACTORS ? MANY_ACTORS_WARMUP_ITERATIONS : ThroughputBenchmark.WARMUP_ITERATIONS;
    }

    /**
     * @param text {@code ACTORSxMESSAGES}, e.g. {@code 1000x1000}
     * @return the shape
     */
    public static Shape parse(String text) {
        String[] parts = text.split("x");
        if (parts.length != 2) {
            throw new IllegalArgumentException("Shape must be ACTORSxMESSAGES, e.g. 1000x1000, got " + text);
        }
        return new Shape(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    }

    /** @return messages sent per round */
    public long totalMessages() {
        return (long) actors * messagesPerActor;
    }
}
