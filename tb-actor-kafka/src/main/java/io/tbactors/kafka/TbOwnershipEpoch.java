package io.tbactors.kafka;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * One period of this node's ownership of a partition: the partition, and which of this node's assignments of it
 * (counted up each time the node takes it). It travels with the work of a message (see
 * {@link TbEntityMsg#getOwnershipEpoch()}); check it where the work has its effect, right before a write:
 *
 * <pre>{@code
 * TbOwnershipEpoch epoch = entityMsg.getOwnershipEpoch();
 * ...
 * if (!epoch.isCurrent()) {          // the partition moved meanwhile: the new owner processes this message
 *     entityMsg.onTbActorStopped(TbActorStopReason.STOPPED);
 *     return;
 * }
 * repository.save(reading);
 * }</pre>
 *
 * <p>An epoch is current while this node still owns the partition in that assignment <em>and</em> the process has
 * run without a pause of half the consumer's session timeout or more since it last confirmed that: after such a pause
 * (SIGSTOP, a long garbage collection, a suspended VM) the group may have handed the partition to another node, and
 * the epoch stays stale even if the node takes the partition again, in a new epoch, after Kafka confirmed its
 * membership. Checking costs two volatile reads and a lock-free comparison, no call to Kafka.
 */
public final class TbOwnershipEpoch {

    private static final TbOwnershipEpoch UNCLUSTERED = new TbOwnershipEpoch(-1, 0, 0, () -> true);

    private final int partition;
    private final int generation;
    private final long fencingToken;
    private final BooleanSupplier current;

    TbOwnershipEpoch(int partition, int generation, long fencingToken, BooleanSupplier current) {
        this.partition = partition;
        this.generation = generation;
        this.fencingToken = fencingToken;
        this.current = current;
    }

    /**
     * An epoch whose currency the given supplier tells; for tests of code that checks epochs.
     *
     * @param generation which assignment of the partition
     * @param current whether the epoch is current, asked at each {@link #isCurrent()}
     * @return the epoch, whose {@linkplain #getFencingToken() fencing token} is its generation
     */
    public static TbOwnershipEpoch of(int partition, int generation, BooleanSupplier current) {
        return of(partition, generation, generation, current);
    }

    /**
     * An epoch whose currency the given supplier tells; for tests of code that checks epochs or fencing tokens.
     *
     * @param generation which assignment of the partition
     * @param fencingToken what {@link #getFencingToken()} returns
     * @param current whether the epoch is current, asked at each {@link #isCurrent()}
     * @return the epoch
     */
    public static TbOwnershipEpoch of(int partition, int generation, long fencingToken, BooleanSupplier current) {
        return new TbOwnershipEpoch(partition, generation, fencingToken, Objects.requireNonNull(current, "current must not be null"));
    }

    /** @return the epoch of a message not routed by partition (clustering off, tests): always current */
    public static TbOwnershipEpoch unclustered() {
        return UNCLUSTERED;
    }

    /** @return the partition, or -1 when clustering is off */
    public int getPartition() {
        return partition;
    }

    /** @return which of this node's assignments of the partition this is, counted from 1; 0 when clustering is off */
    public int getGeneration() {
        return generation;
    }

    /**
     * A number for a store shared by the nodes to fence writes with: of two epochs of one partition, the later owner's
     * has the greater token, whichever nodes they are on. A node that takes a partition first appends an ownership
     * marker to it (a record the owners skip), and the token is that record's offset: offsets only grow in a partition,
     * also when the consumer group is deleted and created anew. A partition kept through rebalances keeps its token,
     * since no other node owned it meanwhile. A store that keeps, per partition, the greatest token it has written
     * with and refuses a write with a lower one, in the same transaction as the write, cannot take a write of an old
     * owner after one of the new owner's, even from a process paused between its {@link #isCurrent()} check and its
     * write (see the module's README); report such a refusal with {@link TbEntityMsg#onSuperseded()}. A stale epoch
     * whose partition this node had lost before the message was handed over has the token -1.
     *
     * @return the fencing token; 0 when clustering is off
     */
    public long getFencingToken() {
        return fencingToken;
    }

    /** @return whether this node still owns the partition in this epoch, so a write made now is the owner's */
    public boolean isCurrent() {
        return current.getAsBoolean();
    }

    @Override
    public String toString() {
        return "TbOwnershipEpoch[partition " + partition + ", generation " + generation + ", fencing token " + fencingToken + "]";
    }
}
