package io.tbactors.api;

/**
 * What a bounded mailbox does with a normal-priority message when it is full. High-priority messages are never refused.
 */
public enum TbMailboxOverflowPolicy {

    /** Refuse the new message: it is told {@link TbActorStopReason#MAILBOX_FULL} (or {@code tryTell} returns false). */
    REJECT_NEWEST,

    /** Accept the new message and remove the oldest waiting one, which is told {@link TbActorStopReason#DROPPED_OLDEST}. */
    DROP_OLDEST
}
