package io.tbactors.benchmarks.throughput;

/**
 * A set of counting actors (or their bare-queue stand-in) that producers tell by index. Each actor counts its
 * messages and reports to the round's completion when it has received its share.
 */
interface ThroughputTarget extends AutoCloseable {

    /** @param actor index of the actor to send one message to */
    void tell(int actor);

    /**
     * @return the turns our runtime's dispatcher has completed so far (a turn processes up to the throughput's messages
     *     of one actor); -1 for targets that do not count turns
     */
    default long completedTurns() {
        return -1;
    }

    /**
     * @return what the runtime says of its dispatcher and its fullest mailboxes, for the message of a round that did not
     *     finish; empty for targets that do not say
     */
    default String diagnostics() {
        return "";
    }

    /** Stops the actors and the threads behind them. */
    @Override
    void close();
}
