package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbEntityActorId;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A message for one entity, delivered to the root actor of the node that owns the entity's partition. The root
 * forwards this envelope (not only its payload) to the entity's actor, and that actor calls {@link #onProcessed()}
 * once it has handled the payload, or {@link #onFailure(Throwable)} when handling it failed.
 *
 * <p>That call is what lets the cluster commit the record's offset (at-least-once: a record is never committed before
 * it was processed or told why it was not) and what completes a local {@link TbClusterRouter#send}. The call may come
 * later from any thread, once asynchronous work is done: see {@link #completeWhen}. An envelope that never reaches an
 * actor, or whose actor stops first, is completed by {@link #onTbActorStopped} and delivered again up to
 * {@code tb.actors.cluster.max-redeliveries} times. Only the first completion counts.
 */
public final class TbEntityMsg implements TbActorMsg {

    private final String entityType;
    private final UUID entityId;
    private final TbActorMsg payload;
    private final int partition;
    private final boolean remote;
    private final Completion completion;
    private final TbOwnershipEpoch epoch;
    private final AtomicBoolean completed = new AtomicBoolean();

    TbEntityMsg(String entityType, UUID entityId, TbActorMsg payload, int partition, boolean remote, Completion completion,
                TbOwnershipEpoch epoch) {
        this.entityType = entityType;
        this.entityId = entityId;
        this.payload = payload;
        this.partition = partition;
        this.remote = remote;
        this.completion = completion;
        this.epoch = epoch;
    }

    /**
     * An envelope that only reports to the given callbacks; for tests of actors that handle envelopes.
     *
     * @param entityType the entity's type
     * @param entityId the entity's id
     * @param payload the message for the entity
     * @param onProcessed run on {@link #onProcessed()}
     * @param onNotProcessed run on {@link #onFailure}, {@link #onTbActorStopped} and {@link #onSuperseded}
     * @return the envelope
     */
    public static TbEntityMsg of(String entityType, UUID entityId, TbActorMsg payload, Runnable onProcessed,
                                 Runnable onNotProcessed) {
        return of(entityType, entityId, payload, TbOwnershipEpoch.unclustered(), onProcessed, onNotProcessed);
    }

    /**
     * An envelope of the given ownership epoch that only reports to the given callbacks; for tests of actors that
     * check the epoch.
     *
     * @param entityType the entity's type
     * @param entityId the entity's id
     * @param payload the message for the entity
     * @param epoch the ownership it was handed over in, see {@link TbOwnershipEpoch#of}
     * @param onProcessed run on {@link #onProcessed()}
     * @param onNotProcessed run on {@link #onFailure}, {@link #onTbActorStopped} and {@link #onSuperseded}
     * @return the envelope
     */
    public static TbEntityMsg of(String entityType, UUID entityId, TbActorMsg payload, TbOwnershipEpoch epoch, Runnable onProcessed,
                                 Runnable onNotProcessed) {
        Objects.requireNonNull(epoch, "epoch must not be null");
        return new TbEntityMsg(entityType, entityId, payload, epoch.getPartition(), false, new Completion() {
            @Override
            public void processed() {
                onProcessed.run();
            }

            @Override
            public void failed(Throwable cause) {
                onNotProcessed.run();
            }

            @Override
            public void notProcessed(TbActorStopReason reason) {
                onNotProcessed.run();
            }

            @Override
            public void superseded() {
                onNotProcessed.run();
            }
        }, epoch);
    }

    /** @return the entity's type, such as {@code DEVICE} */
    public String getEntityType() {
        return entityType;
    }

    /** @return the entity's id, the key of its partition */
    public UUID getEntityId() {
        return entityId;
    }

    /** @return the id of the entity's actor */
    public TbEntityActorId getActorId() {
        return new TbEntityActorId(entityType, entityId);
    }

    /** @return the message for the entity */
    public TbActorMsg getPayload() {
        return payload;
    }

    /** @return the entity's partition, or -1 when clustering is off */
    public int getPartition() {
        return partition;
    }

    /** @return whether the message came through Kafka rather than from a local send */
    public boolean isRemote() {
        return remote;
    }

    /**
     * @return the ownership of the entity's partition this message was handed over in. Check it where the work has its
     *     effect (right before a write), and hand it to asynchronous work that writes later: the partition may move while
     *     the work runs, and a write by the old owner would race the new one's
     */
    public TbOwnershipEpoch getOwnershipEpoch() {
        return epoch;
    }

    /**
     * @return whether the message's {@linkplain #getOwnershipEpoch() ownership epoch} is no longer current: this node
     *     gave the entity's partition up after the message was handed over (or the process was paused long enough that
     *     the group may have given it away), another node owns the entity now and gets the message too (from Kafka, or
     *     re-sent there), so processing it here would process it twice and race the new owner
     */
    public boolean isObsolete() {
        return !epoch.isCurrent();
    }

    /**
     * Completes an obsolete message as not processed, so that it is left to the entity's new owner. Call it first
     * thing in the actors that handle envelopes, the root included, and again right before the work's write:
     *
     * <pre>{@code
     * if (entityMsg.discardIfObsolete()) {
     *     return true;
     * }
     * }</pre>
     *
     * @return whether the message was obsolete and is now completed
     */
    public boolean discardIfObsolete() {
        if (isObsolete()) {
            onTbActorStopped(TbActorStopReason.STOPPED);
            return true;
        }
        return false;
    }

    /** @return whether one of the completion methods has been called */
    public boolean isCompleted() {
        return completed.get();
    }

    /** Reports that the payload was handled. Call once; later calls are ignored. */
    public void onProcessed() {
        if (completed.compareAndSet(false, true)) {
            completion.processed();
        }
    }

    /**
     * Reports that handling the payload failed. A local sender sees the failure. A record read from Kafka is
     * delivered again (after a growing delay, while the entity's later records wait), up to
     * {@code tb.actors.cluster.max-redeliveries} times, then written to the dead-letter topic; only then is its
     * offset committed.
     *
     * @param cause why it failed
     */
    public void onFailure(Throwable cause) {
        Objects.requireNonNull(cause, "cause must not be null");
        if (completed.compareAndSet(false, true)) {
            completion.failed(cause);
        }
    }

    /**
     * Completes this envelope when asynchronous work on its payload completes: {@link #onProcessed()} when the work
     * succeeds, {@link #onFailure} with its cause when it fails. For an actor that hands the payload on (a save, a
     * rule chain) and returns: the record's offset is committed, and a local send completes, only once the work is
     * done. Work that takes longer than {@code tb.actors.cluster.processing-timeout} counts as failed for a record.
     *
     * @param work the work on the payload
     * @param <T> what the work yields
     * @return the same work, to chain on
     */
    public <T> CompletionStage<T> completeWhen(CompletionStage<T> work) {
        Objects.requireNonNull(work, "work must not be null");
        work.whenComplete((result, error) -> {
            if (error == null) {
                onProcessed();
            } else {
                onFailure(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            }
        });
        return work;
    }

    /** Completes this envelope as failed because it was not completed in time; a later completion is ignored. */
    void timeOut(TbProcessingTimeoutException timeout) {
        if (completed.compareAndSet(false, true)) {
            completion.failed(timeout);
        }
    }

    /**
     * Reports that a store fenced by token refused the write (see {@link TbOwnershipEpoch#getFencingToken()}): a later
     * owner of the entity's partition wrote first, so the message is that owner's, whatever this node knows of it yet
     * (a process paused between its ownership check and its write hears of the move only after its write). It is
     * neither delivered again here nor written to the dead-letter topic: a record stays uncommitted for the new owner,
     * and a local send goes to the owner through Kafka, as for a stale epoch. Logged at {@code WARN} and counted
     * ({@code superseded}). Call once; later calls, and completions after it, are ignored.
     */
    public void onSuperseded() {
        if (completed.compareAndSet(false, true)) {
            completion.superseded();
        }
    }

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        if (completed.compareAndSet(false, true)) {
            completion.notProcessed(reason);
        }
    }

    @Override
    public String toString() {
        return "TbEntityMsg[" + entityType + "|" + entityId + ", partition " + partition + ", " + payload.getClass().getSimpleName() + "]";
    }

    /** What happens when an envelope completes: exactly one of these is called, once. */
    interface Completion {

        void processed();

        void failed(Throwable cause);

        void notProcessed(TbActorStopReason reason);

        void superseded();
    }
}
