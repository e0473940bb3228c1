package io.tbactors.benchmarks.support;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A re-armable count-down: armed with the number of parties before a round, counted down by each party when it is
 * done, awaited by the benchmark thread. Parties read the latch of the current round, so rounds never mix.
 */
public final class Completion {

    private static final long TIMEOUT_SECONDS = 120;

    private volatile CountDownLatch latch = new CountDownLatch(0);

    /** @param parties how many {@link #countDown()} calls end the round */
    public void arm(int parties) {
        latch = new CountDownLatch(parties);
    }

    /** One party is done. */
    public void countDown() {
        latch.countDown();
    }

    /** Waits for the round to end; a stuck round fails the benchmark instead of hanging it. */
    public void await() {
        await(() -> "");
    }

    /**
     * Waits for the round to end.
     *
     * @param diagnostics what to add to the failure message when the round does not end in time
     */
    public void await(Supplier<String> diagnostics) {
        CountDownLatch current = latch;
        try {
            if (!current.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Round not finished after " + TIMEOUT_SECONDS + " s: " + current.getCount()
                        + " part(s) missing " + diagnostics.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the round", e);
        }
    }
}
