package io.tbactors.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A link of a mailbox's normal-priority queue ({@link MailboxQueues}): a message and the next link. A producer
 * publishes a node by swapping it in as the tail and then linking the old tail to it. While the turn may run it is the
 * only party that takes from the nodes, with a plain read and write ({@link #take}), unless the mailbox drops its
 * oldest message when full: then a {@code DROP_OLDEST} sender takes from any node at any time, and everybody takes
 * by swapping the message out ({@link #claim}), so exactly one party gets it. Once the actor is destroyed no turn
 * takes any more and the drains, which may race each other, claim too. A node the turn has moved past links to
 * itself, which tells a walker that started before the turn that it must start again from the head.
 */
final class QueueNode {

    private static final VarHandle NEXT;
    private static final VarHandle VALUE;

    /** Spins on a link not yet written before yielding to the producer that is about to write it. */
    private static final int SPINS_BEFORE_YIELD = 32;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(QueueNode.class, "next", QueueNode.class);
            VALUE = lookup.findVarHandle(QueueNode.class, "value", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through NEXT
    private QueueNode next;
    @SuppressWarnings("unused") // through VALUE
    private Object value;

    /** @param value the message (or envelope); published by the tail swap that follows */
    QueueNode(Object value) {
        this.value = value;
    }

    /** @return the next node, null when none is linked yet; this node itself once the turn has moved past it */
    QueueNode next() {
        return (QueueNode) NEXT.getAcquire(this);
    }

    /** The producer that swapped this node out as the tail links it to its successor. */
    void link(QueueNode successor) {
        NEXT.setRelease(this, successor);
    }

    /** The turn moved past this node: it links to itself, so that it keeps no later node alive. */
    void unlink() {
        NEXT.setRelease(this, this);
    }

    /** @return whether the message is still there to be taken (a hint: {@link #claim} decides) */
    boolean holdsValue() {
        return VALUE.getAcquire(this) != null;
    }

    /** @return whether a message (not a wake-up) is still there to be taken (a hint) */
    boolean holdsMessage() {
        Object v = VALUE.getAcquire(this);
        return v != null && v != MailboxQueues.WAKE;
    }

    /**
     * Takes the message for a party other than the turn; a wake-up is left for the turn, which must see it.
     *
     * @return the message, to the first caller only; null when somebody took it already or it is a wake-up
     */
    Object claimMessage() {
        Object v = VALUE.getAcquire(this);
        return v == null || v == MailboxQueues.WAKE ? null : VALUE.getAndSet(this, null);
    }

    /**
     * The turn takes the message where nobody else takes while it may run: a plain read and a plain write.
     *
     * @return the message, {@link MailboxQueues#WAKE}, or null when it was taken already
     */
    Object take() {
        Object v = VALUE.get(this);
        if (v != null) {
            VALUE.set(this, null);
        }
        return v;
    }

    /** @return the message, to the first caller only; null when somebody took it already */
    Object claim() {
        return VALUE.getAcquire(this) == null ? null : VALUE.getAndSet(this, null);
    }

    /**
     * Waits for the link of a node that is no longer the tail: its producer swapped the tail and is a few
     * instructions from linking. On a machine with more runnable threads than cores that producer may have been
     * descheduled in between, so after a short spin the waiting thread yields to it rather than spin out its slice.
     *
     * @return the next node
     */
    QueueNode awaitNext() {
        return awaitNext(Integer.MAX_VALUE);
    }

    /**
     * The turn's wait for the same link: a short spin, then one yield (the producer that has not linked yet is most
     * likely waiting for a core, and the yield offers it this one), then it gives up.
     *
     * @return the next node, or null when it is still not linked
     */
    QueueNode nextAfterBriefWait() {
        return awaitNext(SPINS_BEFORE_YIELD + 1);
    }

    private QueueNode awaitNext(int maxSteps) {
        QueueNode successor;
        int steps = 0;
        while ((successor = next()) == null && steps < maxSteps) {
            steps = backOff(steps);
        }
        return successor;
    }

    /** One step of waiting for a producer between its tail swap and its link: spin a little, then yield. */
    static int backOff(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return spins + 1;
    }
}
