package io.tbactors.benchmarks.pingpong;

import io.tbactors.benchmarks.support.LatencyRecorder;

/** Two parties that bounce a request and its response, one round trip after the other. */
interface PingPong extends AutoCloseable {

    /**
     * Runs round trips back to back and waits until the last response arrived.
     *
     * @param count how many round trips
     * @param recorder receives each round trip's time, measured by the requesting party
     */
    void roundTrips(int count, LatencyRecorder recorder);

    /** Stops both parties. */
    @Override
    void close();
}
