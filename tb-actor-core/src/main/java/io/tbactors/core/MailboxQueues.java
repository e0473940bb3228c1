package io.tbactors.core;

import io.tbactors.api.TbMailboxBound;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A mailbox's two queues, high and normal priority, and its depth counters. Each queue is created by the first
 * message of its priority, so an actor never told anything has none. An unbounded mailbox keeps no depth (nothing per
 * message beyond the queue's own insert and poll) unless depth counting is on; a bounded one counts in
 * {@link MailboxDepth}, whose bound {@link BoundedOffer} applies.
 */
abstract class MailboxQueues extends MailboxTask {

    private static final long serialVersionUID = 1L;

    private static final VarHandle NORMAL;
    private static final VarHandle HIGH;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NORMAL = lookup.findVarHandle(MailboxQueues.class, "normalPriorityMsgs", ConcurrentLinkedQueue.class);
            HIGH = lookup.findVarHandle(MailboxQueues.class, "highPriorityMsgs", ConcurrentLinkedQueue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile ConcurrentLinkedQueue<Object> normalPriorityMsgs;
    private volatile ConcurrentLinkedQueue<Object> highPriorityMsgs;
    /** Null unless the mailbox is bounded or depth counting is on. */
    final MailboxDepth depth;

    MailboxQueues(TbMailboxBound bound, boolean countDepth) {
        this.depth = bound != null || countDepth ? new MailboxDepth(bound) : null;
    }

    /** Queues an element with no bound to respect (unbounded, or high priority), counting it when the depth is kept. */
    final void add(Object element, boolean highPriority) {
        (highPriority ? highQueue() : normalQueue()).add(element);
        MailboxDepth d = depth;
        if (d != null) {
            d.added();
        }
    }

    final ConcurrentLinkedQueue<Object> normalQueue() {
        ConcurrentLinkedQueue<Object> q = normalPriorityMsgs;
        return q != null ? q : createQueue(NORMAL);
    }

    private ConcurrentLinkedQueue<Object> highQueue() {
        ConcurrentLinkedQueue<Object> q = highPriorityMsgs;
        return q != null ? q : createQueue(HIGH);
    }

    private ConcurrentLinkedQueue<Object> createQueue(VarHandle field) {
        ConcurrentLinkedQueue<Object> created = new ConcurrentLinkedQueue<>();
        Object witness = field.compareAndExchange(this, null, created);
        return witness == null ? created : castQueue(witness);
    }

    @SuppressWarnings("unchecked")
    private static ConcurrentLinkedQueue<Object> castQueue(Object o) {
        return (ConcurrentLinkedQueue<Object>) o;
    }

    final boolean hasMessages() {
        ConcurrentLinkedQueue<Object> normal = normalPriorityMsgs;
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return (normal != null && !normal.isEmpty()) || (high != null && !high.isEmpty());
    }

    /** Polls for the {@code SCHEDULED} holder before the actor is destroyed: the only writer of the consumer count. */
    final Object pollTurn() {
        Object element = pollEither();
        MailboxDepth d = depth;
        if (element != null && d != null) {
            d.takenByOwner();
        }
        return element;
    }

    /** Polls from any thread once the actor is destroyed (or the system gave up on it), counting atomically. */
    final Object poll() {
        Object element = pollEither();
        MailboxDepth d = depth;
        if (element != null && d != null) {
            d.taken();
        }
        return element;
    }

    private Object pollEither() {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        Object element = high == null ? null : high.poll();
        if (element != null) {
            return element;
        }
        ConcurrentLinkedQueue<Object> normal = normalPriorityMsgs;
        return normal == null ? null : normal.poll();
    }

    /** @return messages queued: O(1) when the depth is counted, otherwise the queues are walked */
    final int queued() {
        MailboxDepth d = depth;
        if (d != null) {
            return Math.max(0, d.pending());
        }
        ConcurrentLinkedQueue<Object> normal = normalPriorityMsgs;
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return (normal == null ? 0 : normal.size()) + (high == null ? 0 : high.size());
    }
}
