package io.tbactors.api;

/**
 * What the actor system does when an actor's {@code init} throws: retry now, retry after a delay, or stop the actor.
 * The number of attempts is bounded by the system's {@code maxActorInitAttempts} whatever the strategy says.
 */
public final class InitFailureStrategy {

    private static final InitFailureStrategy STOP = new InitFailureStrategy(true, 0);
    private static final InitFailureStrategy RETRY_IMMEDIATELY = new InitFailureStrategy(false, 0);

    private final boolean stop;
    private final long retryDelay;

    private InitFailureStrategy(boolean stop, long retryDelay) {
        this.stop = stop;
        this.retryDelay = retryDelay;
    }

    /** @return a strategy that retries the init at once */
    public static InitFailureStrategy retryImmediately() {
        return RETRY_IMMEDIATELY;
    }

    /**
     * @param ms delay before the next attempt in milliseconds; must not be negative
     * @return a strategy that retries the init after {@code ms} milliseconds
     */
    public static InitFailureStrategy retryWithDelay(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("retry delay must be >= 0 ms, got " + ms);
        }
        return ms == 0 ? RETRY_IMMEDIATELY : new InitFailureStrategy(false, ms);
    }

    /** @return a strategy that gives up and stops the actor */
    public static InitFailureStrategy stop() {
        return STOP;
    }

    /** @return whether the actor is stopped instead of retried */
    public boolean isStop() {
        return stop;
    }

    /** @return the delay before the next attempt in milliseconds (0 for an immediate retry) */
    public long getRetryDelay() {
        return retryDelay;
    }

    @Override
    public String toString() {
        return stop ? "stop" : (retryDelay == 0 ? "retryImmediately" : "retryWithDelay(" + retryDelay + " ms)");
    }
}
