package io.tbactors.kafka;

import java.time.Duration;
import java.util.function.LongConsumer;

/** Lets a repeated warning through at most once per period, and says how many were held back meanwhile. */
final class RateLimitedLog {

    private final long periodNanos;
    private long lastNanos;
    private long suppressed;
    private boolean logged;

    RateLimitedLog(Duration period) {
        this.periodNanos = period.toNanos();
    }

    /** @param logger writes the warning, given the count held back since the last one */
    synchronized void warn(LongConsumer logger) {
        long now = System.nanoTime();
        if (!logged || now - lastNanos >= periodNanos) {
            logger.accept(suppressed);
            suppressed = 0;
            lastNanos = now;
            logged = true;
        } else {
            suppressed++;
        }
    }
}
