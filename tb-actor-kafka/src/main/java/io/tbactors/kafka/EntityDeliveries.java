package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.spring.ActorSystemContext;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import lombok.extern.slf4j.Slf4j;

/**
 * Hands messages for entities to the local root actor as {@link TbEntityMsg} envelopes, and hands them again (after
 * a delay that doubles each time, up to a bound) when an envelope comes back unprocessed, for instance because a
 * mailbox was full or its actor was passivated or stopped while the message waited, up to a bounded number of times.
 * A record read from Kafka is also handed again when its actor reports a failure or does not complete it within the
 * processing timeout; a local send's failure goes to its sender instead.
 */
@Slf4j
final class EntityDeliveries {

    private final ActorSystemContext actorSystemContext;
    private final int maxRedeliveries;
    private final long redeliveryDelayMillis;
    private final long maxRedeliveryDelayMillis;
    private final long processingTimeoutMillis;
    private final LongAdder redelivered = new LongAdder();
    private final LongAdder notProcessed = new LongAdder();
    private final LongAdder superseded = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder timedOut = new LongAdder();

    EntityDeliveries(ActorSystemContext actorSystemContext, TbClusterProperties properties) {
        this.actorSystemContext = actorSystemContext;
        this.maxRedeliveries = properties.getMaxRedeliveries();
        this.redeliveryDelayMillis = Math.max(1, properties.getRedeliveryDelay().toMillis());
        this.maxRedeliveryDelayMillis = Math.max(redeliveryDelayMillis, properties.getMaxRedeliveryDelay().toMillis());
        this.processingTimeoutMillis = properties.getProcessingTimeout().toMillis();
    }

    /**
     * Delivers a message to the root actor.
     *
     * @param entityType the entity's type
     * @param entityId the entity's id
     * @param payload the message
     * @param partition the entity's partition, or -1
     * @param remote whether it came from a record: then a failure or a timeout is delivered again too, and only
     *     when the budget is spent does the outcome hear {@link Outcome#notProcessed}
     * @param epoch whether the message is still this node's to process: asked before each redelivery (stale ends the
     *     delivery as not processed), and carried by the envelope for the application's own checks
     * @param outcome told the final result, once
     */
    void deliver(String entityType, UUID entityId, TbActorMsg payload, int partition, boolean remote,
                 TbOwnershipEpoch epoch, Outcome outcome) {
        new Delivery(entityType, entityId, payload, partition, remote, epoch, outcome).attempt();
    }

    /**
     * Delivers a message sent on this node and reports its result to the sender.
     *
     * @param entityType the entity's type
     * @param entityId the entity's id
     * @param payload the message
     * @param partition the entity's partition, or -1
     * @param epoch the ownership the send was told in, asked before each redelivery
     * @param onDone run once when the delivery ends, whatever its result, before the future completes
     * @param fallback when not null, where a message that came back unprocessed goes instead of failing
     * @return completes when the message was processed, exceptionally when it was not
     */
    CompletableFuture<Void> deliverLocally(String entityType, UUID entityId, TbActorMsg payload, int partition,
                                           TbOwnershipEpoch epoch, Runnable onDone,
                                           Function<TbActorStopReason, CompletableFuture<Void>> fallback) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        deliver(entityType, entityId, payload, partition, false, epoch, new Outcome() {
            @Override
            public void processed() {
                onDone.run();
                result.complete(null);
            }

            @Override
            public void notProcessed(TbActorStopReason reason, Throwable cause, int attempts) {
                onDone.run();
                if (cause == null && fallback != null) {
                    fallback.apply(reason).whenComplete((ignored, error) -> {
                        if (error == null) {
                            result.complete(null);
                        } else {
                            result.completeExceptionally(error);
                        }
                    });
                } else if (cause != null) {
                    result.completeExceptionally(new TbClusterDeliveryException("Processing the message for " + entityType + "|"
                            + entityId + " failed: " + cause.getMessage(), null, cause));
                } else {
                    result.completeExceptionally(new TbClusterDeliveryException("The message for " + entityType + "|"
                            + entityId + " was not processed: " + reason, reason, null));
                }
            }
        });
        return result;
    }

    /**
     * Checks a send's arguments.
     *
     * @param entityType the entity's type: not blank, without '|'
     * @param entityId the entity's id: not null
     * @param msg the message: not null
     */
    static void requireValid(String entityType, UUID entityId, TbActorMsg msg) {
        Objects.requireNonNull(msg, "msg must not be null");
        new TbEntityActorId(entityType, entityId);
    }

    long getSupersededCount() {
        return superseded.sum();
    }

    long getRedeliveredCount() {
        return redelivered.sum();
    }

    long getNotProcessedCount() {
        return notProcessed.sum();
    }

    long getFailedCount() {
        return failed.sum();
    }

    long getTimedOutCount() {
        return timedOut.sum();
    }

    /**
     * @param attempts deliveries so far, at least 1
     * @return the delay before the next: the redelivery delay, doubled for each earlier redelivery, at most the bound
     */
    long backoffMillis(int attempts) {
        int doublings = Math.min(attempts - 1, 30);
        return Math.min(maxRedeliveryDelayMillis, redeliveryDelayMillis << doublings);
    }

    /** The final result of a delivery. */
    interface Outcome {

        /** The entity's actor reported the message processed. */
        void processed();

        /**
         * The message was not processed: the actor reported a failure (a local send) or every attempt came back,
         * failed or timed out.
         *
         * @param reason why the last attempt came back unprocessed, or null when it failed or timed out
         * @param cause the failure the actor reported, a {@link TbProcessingTimeoutException}, or null
         * @param attempts deliveries made
         */
        void notProcessed(TbActorStopReason reason, Throwable cause, int attempts);

        /**
         * The message was not processed and is no longer this node's to retry: its partition was given up, or the
         * actor system stops. By default the same as a final {@link #notProcessed}.
         *
         * @param reason why the last attempt came back
         * @param cause the failure of the last attempt, or null
         * @param attempts deliveries made
         */
        default void abandoned(TbActorStopReason reason, Throwable cause, int attempts) {
            notProcessed(reason, cause, attempts);
        }
    }

    private final class Delivery implements TbEntityMsg.Completion {

        private final String entityType;
        private final UUID entityId;
        private final TbActorMsg payload;
        private final int partition;
        private final boolean remote;
        private final TbOwnershipEpoch epoch;
        private final Outcome outcome;
        private volatile int attempts;
        private volatile ScheduledFuture<?> timeout;

        private Delivery(String entityType, UUID entityId, TbActorMsg payload, int partition, boolean remote,
                         TbOwnershipEpoch epoch, Outcome outcome) {
            this.entityType = entityType;
            this.entityId = entityId;
            this.payload = payload;
            this.partition = partition;
            this.remote = remote;
            this.epoch = epoch;
            this.outcome = outcome;
        }

        private void attempt() {
            attempts++;
            TbEntityMsg envelope = new TbEntityMsg(entityType, entityId, payload, partition, remote, this, epoch);
            if (remote) {
                scheduleTimeout(envelope);
            }
            try {
                actorSystemContext.tell(envelope);
            } catch (RuntimeException e) {
                log.warn("[{}|{}] Could not tell {} to the root actor: {}", entityType, entityId, envelope, e.getMessage());
                envelope.onTbActorStopped(TbActorStopReason.STOPPED);
            }
        }

        private void scheduleTimeout(TbEntityMsg envelope) {
            try {
                timeout = actorSystemContext.getScheduler().schedule(() -> envelope.timeOut(new TbProcessingTimeoutException(
                        envelope + " was not completed within " + processingTimeoutMillis + "ms")),
                        processingTimeoutMillis, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                // the scheduler is gone: the actor system stops, and the record will not be committed anyway
                timeout = null;
            }
        }

        private void cancelTimeout() {
            ScheduledFuture<?> pending = timeout;
            if (pending != null) {
                pending.cancel(false);
            }
        }

        @Override
        public void processed() {
            cancelTimeout();
            outcome.processed();
        }

        @Override
        public void failed(Throwable cause) {
            cancelTimeout();
            if (cause instanceof TbProcessingTimeoutException) {
                timedOut.increment();
            } else {
                failed.increment();
            }
            if (remote) {
                retryOrGiveUp(null, cause);
            } else {
                outcome.notProcessed(null, cause, attempts);
            }
        }

        @Override
        public void notProcessed(TbActorStopReason reason) {
            cancelTimeout();
            retryOrGiveUp(reason, null);
        }

        @Override
        public void superseded() {
            cancelTimeout();
            superseded.increment();
            log.warn("[{}|{}] A store refused the write: a later owner of partition {} wrote first (this node's fencing token {}); "
                    + "the message is left to that owner", entityType, entityId, partition, epoch.getFencingToken());
            outcome.abandoned(TbActorStopReason.STOPPED, null, attempts);
        }

        private void retryOrGiveUp(TbActorStopReason reason, Throwable cause) {
            if (!actorSystemContext.isAcceptingMessages() || !epoch.isCurrent()) {
                log.debug("[{}|{}] No longer this node's after {} attempt(s): {}", entityType, entityId, attempts, reason);
                outcome.abandoned(reason, cause, attempts);
                return;
            }
            if (attempts > maxRedeliveries) {
                notProcessed.increment();
                log.debug("[{}|{}] Not processed after {} attempt(s): {}", entityType, entityId, attempts, cause != null ? cause : reason);
                outcome.notProcessed(reason, cause, attempts);
                return;
            }
            redelivered.increment();
            try {
                actorSystemContext.getScheduler().schedule(this::attempt, backoffMillis(attempts), TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                // the scheduler is gone: the actor system stops
                outcome.abandoned(reason, cause, attempts);
            }
        }
    }
}
