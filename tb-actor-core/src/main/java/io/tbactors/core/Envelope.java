package io.tbactors.core;

import io.tbactors.api.TbActorMsg;

/**
 * A queued message with what travels with it: the time it was queued ({@link #NOT_TIMED} when wait times are not
 * recorded), the sender's context and its delivery (each null when none). Used only when one of the three is there;
 * otherwise the message itself is queued.
 */
record Envelope(TbActorMsg msg, long enqueuedAt, Object context, Delivery delivery) {

    static final long NOT_TIMED = Long.MIN_VALUE;
}
