package io.tbactors.benchmarks.pingpong;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.LatencyRecorder;

/** The requesting party's bookkeeping: times each round trip and ends the series. One thread at a time. */
final class RoundTrips {

    private final Completion done;
    private LatencyRecorder recorder;
    private int remaining;
    private long sentAt;

    RoundTrips(Completion done) {
        this.done = done;
    }

    /**
     * A series begins; the caller sends the first request right after.
     *
     * @param start the series
     */
    void start(Messages.Start start) {
        recorder = start.recorder();
        remaining = start.count();
        sentAt = System.nanoTime();
    }

    /** @return whether to send the next request now; false when the series is over */
    boolean responseReceived() {
        recorder.record(System.nanoTime() - sentAt);
        if (--remaining == 0) {
            done.countDown();
            return false;
        }
        sentAt = System.nanoTime();
        return true;
    }
}
