package io.tbactors.benchmarks.support;

import java.util.concurrent.locks.LockSupport;

/**
 * How a bare-queue consumer waits for work: spin first (a handoff in flight arrives within nanoseconds), then
 * yield the core to the producers, and park only after a long idle stretch such as the pause between two rounds.
 * Each consumer thread owns one instance.
 */
public final class SpinThenPark {

    private static final int SPINS = 200;
    private static final int YIELDS = 20_000;
    private static final long PARK_NANOS = 50_000;

    private int idleCount;

    /** Called after a poll found nothing. */
    public void idle() {
        int n = ++idleCount;
        if (n <= SPINS) {
            Thread.onSpinWait();
        } else if (n <= SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(PARK_NANOS);
        }
    }

    /** Called after a poll found work. */
    public void reset() {
        idleCount = 0;
    }
}
