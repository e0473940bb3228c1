package io.tbactors.benchmarks.throughput;

/**
 * A throughput workload: how many actors, and how many messages each receives per round.
 *
 * @param actors number of actors
 * @param messagesPerActor messages each actor receives per round
 */
public record Shape(int actors, int messagesPerActor) {

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
