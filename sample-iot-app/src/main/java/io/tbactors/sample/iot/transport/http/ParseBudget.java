package io.tbactors.sample.iot.transport.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the bytes of device API bodies being parsed at once ({@code sample.device-api.max-parsing}). A parsed body
 * takes several times its bytes in heap until it is admitted or refused, and each parse takes a request thread's CPU:
 * without a bound, 150 connections posting 60 KB bodies parse 150 at a time, and the rest of the server (its health
 * among it) waits for the CPU. A body that finds the budget spent is refused unparsed; one body is always parsed when
 * nothing else is, whatever its size.
 */
final class ParseBudget {

    private final long maxBytes;
    private final AtomicLong parsing = new AtomicLong();

    /** @param maxBytes most bytes parsed at once */
    ParseBudget(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * @param bytes a body's size
     * @return whether it may be parsed now; then {@link #release} must follow
     */
    boolean tryAcquire(long bytes) {
        while (true) {
            long now = parsing.get();
            if (now > 0 && now + bytes > maxBytes) {
                return false;
            }
            if (parsing.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** @param bytes as acquired */
    void release(long bytes) {
        parsing.addAndGet(-bytes);
    }

    /** @return bytes being parsed now */
    long parsing() {
        return parsing.get();
    }

    /** @return the bound */
    long maxBytes() {
        return maxBytes;
    }
}
