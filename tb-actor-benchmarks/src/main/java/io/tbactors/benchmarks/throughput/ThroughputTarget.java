package io.tbactors.benchmarks.throughput;

/**
 * A set of counting actors (or their bare-queue stand-in) that producers tell by index. Each actor counts its
 * messages and reports to the round's completion when it has received its share.
 */
interface ThroughputTarget extends AutoCloseable {

    /** @param actor index of the actor to send one message to */
    void tell(int actor);

    /** Stops the actors and the threads behind them. */
    @Override
    void close();
}
