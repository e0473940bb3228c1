package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record on its way through its entity's queue: delivered when it reaches the head, delivered again while it
 * fails or comes back, dead-lettered when its budget is spent; the entity's next record starts only after that.
 */
@Slf4j
final class RecordDelivery implements EntityLanes.Task, EntityDeliveries.Outcome {

    private final RecordDispatch dispatch;
    private final ConsumerRecord<String, byte[]> record;
    private final String entityType;
    private final UUID entityId;
    private final TbActorMsg msg;
    private final PartitionTracker tracker;
    private final int generation;
    private final EntityLanes lanes;
    private final String entity;

    RecordDelivery(RecordDispatch dispatch, ConsumerRecord<String, byte[]> record, String entityType, UUID entityId, TbActorMsg msg,
                   PartitionTracker tracker, int generation, EntityLanes lanes, String entity) {
        this.dispatch = dispatch;
        this.record = record;
        this.entityType = entityType;
        this.entityId = entityId;
        this.msg = msg;
        this.tracker = tracker;
        this.generation = generation;
        this.lanes = lanes;
        this.entity = entity;
    }

    private boolean isCurrent() {
        return dispatch.isCurrent(tracker, generation);
    }

    @Override
    public void start() {
        if (!isCurrent()) {
            lanes.drop(entity);
            return;
        }
        dispatch.deliveries().deliver(entityType, entityId, msg, record.partition(), true,
                new TbOwnershipEpoch(record.partition(), generation, tracker.fencingToken(generation), this::isCurrent), this);
    }

    @Override
    public void drop() {
        tracker.held(generation, record.offset());
    }

    @Override
    public void processed() {
        done(null, null);
    }

    /** The record is done: processed, or given up to the dead-letter topic; a requester hears which. */
    private void done(String failureReason, String failureError) {
        tracker.completed(generation, record.offset());
        lanes.next(entity);
        dispatch.answer(record, failureReason, failureError);
    }

    @Override
    public void notProcessed(TbActorStopReason reason, Throwable cause, int attempts) {
        DeadLetterPublisher.Reason why = DeadLetterPublisher.Reason.of(cause);
        String error = cause == null ? String.valueOf(reason) : cause.getClass().getName() + ": " + cause.getMessage();
        deadLetter(why, error, attempts);
    }

    @Override
    public void abandoned(TbActorStopReason reason, Throwable cause, int attempts) {
        // this node stops or gave the partition up: the record stays uncommitted for the next owner
        drop();
        lanes.drop(entity);
    }

    private void deadLetter(DeadLetterPublisher.Reason why, String error, int attempts) {
        if (!isCurrent()) {
            // the partition moved: the new owner processes the record, and dead-letters it if it must
            abandoned(null, null, attempts);
            return;
        }
        CompletableFuture<Void> written;
        try {
            written = dispatch.deadLetters().publish(record, why, error, attempts);
        } catch (RuntimeException e) {
            written = CompletableFuture.failedFuture(e);
        }
        written.whenComplete((ok, failure) -> {
            if (failure == null) {
                dispatch.stats().deadLettered(new TbClusterDeadLetter(entity, record.partition(), record.offset(), why, error, attempts,
                        Instant.now()));
                dispatch.deadLetterLog().warn(suppressed -> log.warn("[{}] Record {}-{}@{} written to '{}' after {} attempt(s), {}: "
                                + "{} ({} more since the last report)", entity, record.topic(), record.partition(), record.offset(),
                        dispatch.deadLetters().getTopic(), attempts, why, error, suppressed));
                done(why.name(), error);
            } else if (isCurrent() && dispatch.isRunning()) {
                dispatch.deadLetterLog().warn(suppressed -> log.warn("[{}] Writing record {}-{}@{} to '{}' failed; retrying in {} "
                                + "({} more since the last report): {}", entity, record.topic(), record.partition(), record.offset(),
                        dispatch.deadLetters().getTopic(), dispatch.deadLetterRetryDelay(), suppressed, failure.toString()));
                retryDeadLetter(why, error, attempts);
            } else {
                abandoned(null, failure, attempts);
            }
        });
    }

    private void retryDeadLetter(DeadLetterPublisher.Reason why, String error, int attempts) {
        try {
            dispatch.schedule(() -> deadLetter(why, error, attempts));
        } catch (RuntimeException e) {
            abandoned(null, e, attempts);
        }
    }
}
