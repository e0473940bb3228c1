package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.spring.ActorSystemContext;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import lombok.extern.slf4j.Slf4j;

/**
 * Hands messages for entities to the local root actor as {@link TbEntityMsg} envelopes, and hands them again (after
 * a short, growing delay) when an envelope comes back unprocessed, for instance because its actor was passivated or
 * stopped while the message waited, up to a bounded number of times.
 */
@Slf4j
final class EntityDeliveries {

    private final ActorSystemContext actorSystemContext;
    private final int maxRedeliveries;
    private final Duration redeliveryDelay;
    private final LongAdder redelivered = new LongAdder();
    private final LongAdder notProcessed = new LongAdder();
    private final LongAdder failed = new LongAdder();

    EntityDeliveries(ActorSystemContext actorSystemContext, int maxRedeliveries, Duration redeliveryDelay) {
        this.actorSystemContext = actorSystemContext;
        this.maxRedeliveries = maxRedeliveries;
        this.redeliveryDelay = redeliveryDelay;
    }

    /**
     * Delivers a message to the root actor.
     *
     * @param entityType the entity's type
     * @param entityId the entity's id
     * @param payload the message
     * @param partition the entity's partition, or -1
     * @param remote whether it came from a record
     * @param stillWanted whether the message is still this node's to process: asked before each redelivery (false ends
     *     the delivery as not processed) and by {@link TbEntityMsg#isObsolete()}
     * @param outcome told the final result, once
     */
    void deliver(String entityType, UUID entityId, TbActorMsg payload, int partition, boolean remote,
                 BooleanSupplier stillWanted, Outcome outcome) {
        new Delivery(entityType, entityId, payload, partition, remote, stillWanted, outcome).attempt();
    }

    /**
     * Delivers a message sent on this node and reports its result to the sender.
     *
     * @param entityType the entity's type
     * @param entityId the entity's id
     * @param payload the message
     * @param partition the entity's partition, or -1
     * @param stillWanted asked before each redelivery
     * @param onDone run once when the delivery ends, whatever its result, before the future completes
     * @param fallback when not null, where a message that came back unprocessed goes instead of failing
     * @return completes when the message was processed, exceptionally when it was not
     */
    CompletableFuture<Void> deliverLocally(String entityType, UUID entityId, TbActorMsg payload, int partition,
                                           BooleanSupplier stillWanted, Runnable onDone,
                                           Function<TbActorStopReason, CompletableFuture<Void>> fallback) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        deliver(entityType, entityId, payload, partition, false, stillWanted, new Outcome() {
            @Override
            public void processed() {
                onDone.run();
                result.complete(null);
            }

            @Override
            public void notProcessed(TbActorStopReason reason, Throwable cause) {
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

    long getRedeliveredCount() {
        return redelivered.sum();
    }

    long getNotProcessedCount() {
        return notProcessed.sum();
    }

    long getFailedCount() {
        return failed.sum();
    }

    /** The final result of a delivery. */
    interface Outcome {

        /** The entity's actor reported the message processed. */
        void processed();

        /**
         * The message was not processed: the actor reported a failure or every attempt came back.
         *
         * @param reason why it was not processed, or null when the actor reported a failure
         * @param cause the failure the actor reported, or null
         */
        void notProcessed(TbActorStopReason reason, Throwable cause);
    }

    private final class Delivery implements TbEntityMsg.Completion {

        private final String entityType;
        private final UUID entityId;
        private final TbActorMsg payload;
        private final int partition;
        private final boolean remote;
        private final BooleanSupplier stillWanted;
        private final Outcome outcome;
        private int attempts;

        private Delivery(String entityType, UUID entityId, TbActorMsg payload, int partition, boolean remote,
                         BooleanSupplier stillWanted, Outcome outcome) {
            this.entityType = entityType;
            this.entityId = entityId;
            this.payload = payload;
            this.partition = partition;
            this.remote = remote;
            this.stillWanted = stillWanted;
            this.outcome = outcome;
        }

        private void attempt() {
            attempts++;
            TbEntityMsg envelope = new TbEntityMsg(entityType, entityId, payload, partition, remote, this, stillWanted);
            try {
                actorSystemContext.tell(envelope);
            } catch (RuntimeException e) {
                log.warn("Could not tell {} to the root actor: {}", envelope, e.getMessage());
                envelope.onTbActorStopped(TbActorStopReason.STOPPED);
            }
        }

        @Override
        public void processed() {
            outcome.processed();
        }

        @Override
        public void failed(Throwable cause) {
            failed.increment();
            outcome.notProcessed(null, cause);
        }

        @Override
        public void notProcessed(TbActorStopReason reason) {
            boolean retry = attempts <= maxRedeliveries && actorSystemContext.isAcceptingMessages() && stillWanted.getAsBoolean();
            if (!retry) {
                notProcessed.increment();
                log.debug("{}|{} not processed after {} attempt(s): {}", entityType, entityId, attempts, reason);
                outcome.notProcessed(reason, null);
                return;
            }
            redelivered.increment();
            long delayMillis = redeliveryDelay.toMillis() * attempts;
            try {
                actorSystemContext.getScheduler().schedule(this::attempt, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                // the scheduler is gone: the actor system stops
                notProcessed.increment();
                outcome.notProcessed(reason, null);
            }
        }
    }
}
