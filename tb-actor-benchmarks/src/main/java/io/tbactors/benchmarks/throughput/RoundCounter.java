package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;

/**
 * The work of one counting actor: count its messages and tell the round's completion when its share arrived.
 * Touched by one thread at a time (the actor's turn, or the consumer that serves it).
 */
final class RoundCounter {

    private final int perRound;
    private final Completion completion;
    private int received;

    RoundCounter(int perRound, Completion completion) {
        this.perRound = perRound;
        this.completion = completion;
    }

    /** @return messages received in the round so far (read by another thread, for a diagnosis only) */
    int received() {
        return received;
    }

    /** @return messages per round */
    int perRound() {
        return perRound;
    }

    void receive() {
        if (++received == perRound) {
            received = 0;
            completion.countDown();
        }
    }
}
