package io.tbactors.core;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lets one warning through per interval and counts the ones held back, so a storm of the same problem costs one
 * log line per interval instead of one per event.
 */
final class RateLimitedWarning {

    private final long intervalNanos;
    private final AtomicLong nextAllowed = new AtomicLong(Long.MIN_VALUE);
    private final LongAdder suppressed = new LongAdder();

    RateLimitedWarning(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /**
     * @return -1 when this event must not be logged; otherwise how many events were held back since the last line
     */
    long tryAcquire() {
        long now = System.nanoTime();
        long next = nextAllowed.get();
        if ((next == Long.MIN_VALUE || now - next >= 0) && nextAllowed.compareAndSet(next, now + intervalNanos)) {
            return suppressed.sumThenReset();
        }
        suppressed.increment();
        return -1;
    }
}
