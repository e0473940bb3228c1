package io.tbactors.core;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbMailboxOverflowPolicy;

/** How a normal-priority message enters a bounded mailbox: a reserved slot, or the overflow policy. */
final class BoundedOffer {

    private BoundedOffer() {
    }

    /**
     * Reserves a slot under the capacity before queueing, so the bound holds under concurrent senders. A
     * {@code DROP_OLDEST} sender takes over the slot of the message it drops.
     */
    static int offer(TbActorMailbox mailbox, TbActorMsg msg, Object element, Delivery delivery, MailboxDepth d, boolean tryOnly) {
        TbMailboxBound limit = d.bound();
        int capacity = limit.capacity();
        for (;;) {
            if (d.tryReserve(capacity)) {
                return accepted(mailbox.addNormal(element));
            }
            if (tryOnly) {
                mailbox.runtime.tryTellRefused(mailbox);
                mailbox.handedBack(msg);
                return TbActorMailbox.REFUSED_FULL;
            }
            if (limit.overflowPolicy() == TbMailboxOverflowPolicy.DROP_OLDEST) {
                Object oldest = mailbox.claimOldest(d);
                if (oldest != null) {
                    // the dropped message's slot becomes ours: the depth counters stay as they are
                    boolean woke = mailbox.addNormal(element);
                    mailbox.notProcessedElement(oldest, TbActorStopReason.DROPPED_OLDEST);
                    return accepted(woke);
                }
                if (d.hasRoom(capacity)) {
                    // the turn took a message meanwhile: a slot is free again
                    continue;
                }
                // full with nothing of normal priority to drop: high-priority messages fill it, or senders that
                // reserved their slots have not queued yet; no waiting on them, the newest is refused
            }
            mailbox.refuse(msg, delivery, TbActorStopReason.MAILBOX_FULL);
            return TbActorMailbox.REFUSED_FULL;
        }
    }

    private static int accepted(boolean woke) {
        return woke ? TbActorMailbox.ACCEPTED_WOKE : TbActorMailbox.ACCEPTED;
    }
}
