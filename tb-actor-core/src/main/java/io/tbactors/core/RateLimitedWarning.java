package io.tbactors.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * Lets one warning through per interval and counts the ones held back, so a storm of the same problem costs one
 * log line per interval instead of one per event. The first event always goes through. Lock-free: safe to call from
 * any number of threads; the one that wins the interval writes the line.
 *
 * <p>The runtime's dead letters, slow turns and failure reports use it, and so do modules built on the core (the
 * Kafka cluster's consumer and inbox), so that every rate-limited line of the project says the same thing the same
 * way: how many were held back since the last one.
 */
public final class RateLimitedWarning {

    private final long intervalNanos;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final LongAdder suppressed = new LongAdder();

    /** @param interval the shortest time between two lines; positive */
    public RateLimitedWarning(Duration interval) {
        this(interval.toNanos());
    }

    RateLimitedWarning(long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be positive, was " + intervalNanos + " ns");
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * @return -1 when this event must not be logged; otherwise how many events were held back since the last line
     */
    public long tryAcquire() {
        long now = System.nanoTime();
        long next = nextAllowed.get();
        if ((next == Long.MIN_VALUE || now - next >= 0) && nextAllowed.compareAndSet(next, now + intervalNanos)) {
            return suppressed.sumThenReset();
        }
        suppressed.increment();
        return -1;
    }

    /**
     * Writes the line when this event may be logged; otherwise only counts it.
     *
     * @param line writes the warning, given how many events were held back since the last line
     */
    public void warn(LongConsumer line) {
        long heldBack = tryAcquire();
        if (heldBack >= 0) {
            line.accept(heldBack);
        }
    }
}
