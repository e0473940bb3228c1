package io.tbactors.core;

import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbMailboxOverflowPolicy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The depth counters of a mailbox that is bounded or whose depth is counted on request
 * ({@link TbActorSystemSettings#isCountMailboxDepth()}); other mailboxes have none and pay nothing per message.
 *
 * <p>depth = enqueued - dequeued (int arithmetic wraps consistently). Senders add to {@code enqueued} atomically (a
 * bounded sender reserves its slot with a compare-and-set); until the actor is destroyed the turn owner is the only
 * writer of {@code dequeued} and counts with a release store, no locked instruction; drains after the destroy count
 * atomically. The two counters live 64 bytes apart in one array, with 64 bytes before and after, so the senders' line
 * and the consumer's line are never the same and never shared with a neighbouring object.
 */
final class MailboxDepth {

    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int ENQUEUED = 16;
    private static final int DEQUEUED = 32;

    private final int[] cells = new int[48];
    private final TbMailboxBound bound;
    /** Whether a sender may take the oldest message when the mailbox is full, so the turn must claim each one. */
    private final boolean dropsOldest;
    /** The node a {@code DROP_OLDEST} sender last took from, where the next one starts looking. */
    private volatile QueueNode dropHint;

    /** @param bound the bound to keep, null when the depth is only counted */
    MailboxDepth(TbMailboxBound bound) {
        this.bound = bound;
        this.dropsOldest = bound != null && bound.overflowPolicy() == TbMailboxOverflowPolicy.DROP_OLDEST;
    }

    /** @return whether a {@code DROP_OLDEST} sender may take from the queue while the turn runs */
    boolean dropsOldest() {
        return dropsOldest;
    }

    /** @return the bound, or null for an unbounded mailbox that only counts */
    TbMailboxBound bound() {
        return bound;
    }

    /** A sender queued a message (high priority, or normal priority into an unbounded mailbox). */
    void added() {
        CELLS.getAndAdd(cells, ENQUEUED, 1);
    }

    /** @return whether the caller reserved a slot under the capacity; false when the mailbox looks full */
    boolean tryReserve(int capacity) {
        for (;;) {
            int in = (int) CELLS.getVolatile(cells, ENQUEUED);
            if (in - (int) CELLS.getVolatile(cells, DEQUEUED) >= capacity) {
                return false;
            }
            if (CELLS.compareAndSet(cells, ENQUEUED, in, in + 1)) {
                return true;
            }
        }
    }

    /** @return whether a slot is free at this moment */
    boolean hasRoom(int capacity) {
        return pending() < capacity;
    }

    /** The turn owner took a message (the only writer before the destroy). */
    void takenByOwner() {
        CELLS.setRelease(cells, DEQUEUED, (int) CELLS.getAcquire(cells, DEQUEUED) + 1);
    }

    /** Anybody took a message once the actor is destroyed. */
    void taken() {
        CELLS.getAndAdd(cells, DEQUEUED, 1);
    }

    QueueNode dropHint() {
        return dropHint;
    }

    void dropHint(QueueNode node) {
        dropHint = node;
    }

    /** @return messages waiting (may be briefly negative or stale under concurrent change) */
    int pending() {
        return (int) CELLS.getVolatile(cells, ENQUEUED) - (int) CELLS.getVolatile(cells, DEQUEUED);
    }
}
