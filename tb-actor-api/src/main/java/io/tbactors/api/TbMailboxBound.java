package io.tbactors.api;

import java.util.Objects;

/**
 * The bound of an actor's normal-priority mailbox: a capacity and what to do when it is reached.
 *
 * @param capacity most normal-priority messages waiting at once; at least 1
 * @param overflowPolicy what happens to a message told to a full mailbox
 */
public record TbMailboxBound(int capacity, TbMailboxOverflowPolicy overflowPolicy) {

    /**
     * @param capacity at least 1
     * @param overflowPolicy not null
     */
    public TbMailboxBound {
        if (capacity < 1) {
            throw new IllegalArgumentException("mailbox capacity must be >= 1, got " + capacity);
        }
        Objects.requireNonNull(overflowPolicy, "overflowPolicy must not be null; use REJECT_NEWEST or DROP_OLDEST");
    }

    /**
     * @param capacity at least 1
     * @return a bound that refuses new messages when full
     */
    public static TbMailboxBound rejectNewest(int capacity) {
        return new TbMailboxBound(capacity, TbMailboxOverflowPolicy.REJECT_NEWEST);
    }

    /**
     * @param capacity at least 1
     * @return a bound that drops the oldest waiting message when full
     */
    public static TbMailboxBound dropOldest(int capacity) {
        return new TbMailboxBound(capacity, TbMailboxOverflowPolicy.DROP_OLDEST);
    }
}
