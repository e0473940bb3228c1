package io.tbactors.kafka;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** What both routers do to a request: check its timeout, and end its wait with the same exception. */
final class TbClusterReplies {

    private TbClusterReplies() {
    }

    static void requirePositive(Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be a positive duration, got " + timeout);
        }
    }

    /**
     * @param processed completes when the entity's actor processed the message
     * @param entity the entity, for the message
     * @param timeout the longest wait
     * @return completes as {@code processed}, or fails with {@link TbClusterReplyTimeoutException} after the timeout
     */
    static CompletableFuture<Void> bounded(CompletableFuture<Void> processed, String entity, Duration timeout) {
        CompletableFuture<Void> bounded = new CompletableFuture<>();
        processed.whenComplete((ok, failure) -> {
            if (failure == null) {
                bounded.complete(null);
            } else {
                bounded.completeExceptionally(failure);
            }
        });
        CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS).execute(() ->
                bounded.completeExceptionally(new TbClusterReplyTimeoutException("The owner of " + entity + " did not answer within "
                        + timeout + "; the message may still be processed")));
        return bounded;
    }
}
