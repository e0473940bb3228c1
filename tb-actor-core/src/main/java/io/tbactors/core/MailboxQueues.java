package io.tbactors.core;

import io.tbactors.api.TbMailboxBound;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * A mailbox's two queues, high and normal priority, and its depth counters.
 *
 * <p>The normal-priority queue is built into the mailbox: a chain of {@link QueueNode}s from {@code head} to {@code
 * tail}. A sender swaps its node in as the tail (one atomic exchange, never a retry) and links the old tail to it; the
 * turn follows the links from the head, which only the turn moves, and takes each message out of its node. Until the
 * first message both ends are null, so an actor never told anything carries two empty fields and no queue object.
 * Between a sender's swap and its link the next node is not reachable yet. The turn does not wait for it beyond a short
 * spin and one yield: it ends as if the queue were empty, keeps the actor (the tail moved, so it cannot go idle) and
 * comes back after the worker's other turns, so a sender descheduled there holds up its own actor only, never a
 * dispatcher thread. Every other walker waits for the link (yielding if the sender was descheduled), so nobody who saw
 * the tail move reports the queue empty.
 *
 * <p>Who takes: while a turn may run, nobody but the turn takes from the queue, so it takes each message with a plain
 * read and write ({@link QueueNode#take}), no atomic operation per message. The one exception is a mailbox whose bound
 * drops the oldest message: a {@code DROP_OLDEST} sender takes from any node at any time, so there every party swaps
 * the message out of its node ({@link QueueNode#claim}) and exactly one gets it. The drain runs only once the actor is
 * destroyed ({@link #drain}), when no turn takes any more: by the holder of the turn that destroyed it, by a sender
 * whose message came after that drain, or by the system stop for an actor whose executor ended without running its
 * turn. The system stop never takes from an actor whose turn is still running: that turn tells what is left when it
 * returns (see {@link SystemShutdown}). Drains claim each message, since they may race each other, and move the head
 * to where they stopped, so that a destroyed mailbox keeps none of the nodes it told.
 *
 * <p>The tail also tells whether a turn is held: {@link #IDLE} while none is. The holder gives the turn up with one
 * compare-and-set of the tail from the last node to {@code IDLE} ({@link #tryIdle}), which fails if a sender swapped
 * the tail since the holder's last take found the queue empty; the sender whose swap returns {@code IDLE} holds the turn
 * ({@link #addNormal} returns true). So the exchange that queues a message also schedules the actor when it was idle.
 * That sender makes its node the head at once (every earlier message was taken) and links the taken node to itself, so
 * the turn it submits starts at its message without reading the node before it, and a walker that stood on the taken
 * node goes back to the head (BENCHMARKS.md, "The idle actor's new head").
 *
 * <p>High-priority messages are rare; their queue is a {@link ConcurrentLinkedQueue} created by the first one. An
 * unbounded mailbox keeps no depth (nothing per message beyond the queue's own insert and take) unless depth counting
 * is on; a bounded one counts in {@link MailboxDepth}, whose bound {@link BoundedOffer} applies.
 */
abstract class MailboxQueues extends MailboxTask {

    private static final long serialVersionUID = 1L;

    private static final VarHandle HIGH;
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HIGH = lookup.findVarHandle(MailboxQueues.class, "highPriorityMsgs", ConcurrentLinkedQueue.class);
            TAIL = lookup.findVarHandle(MailboxQueues.class, "tail", QueueNode.class);
            HEAD = lookup.findVarHandle(MailboxQueues.class, "head", QueueNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Not scheduled: the tail while no turn holds the actor. The first sender to swap it out learns that the actor was
     * idle and submits its turn; the turn swaps it back in, with one compare-and-set, only when the queue is empty.
     */
    static final QueueNode IDLE = new QueueNode(null);
    /** A node's value that is no message: appended to make a turn look at the status (see {@link #wake}). */
    static final Object WAKE = new Object();

    /** The newest node; null until the first normal-priority message; {@link #IDLE} while no turn holds the actor. */
    private volatile QueueNode tail;
    /** The node the turn reached (its message taken, except the very first node's); written by the turn only. */
    @SuppressWarnings("unused") // through HEAD
    private QueueNode head;
    private volatile ConcurrentLinkedQueue<Object> highPriorityMsgs;
    /** Null unless the mailbox is bounded or depth counting is on. */
    final MailboxDepth depth;

    MailboxQueues(TbMailboxBound bound, boolean countDepth) {
        this.depth = bound != null || countDepth ? new MailboxDepth(bound) : null;
    }

    /**
     * Queues an element with no bound to respect (unbounded, or high priority), counting it when the depth is kept.
     *
     * @return whether the actor was idle: the caller now holds its turn and must submit it
     */
    final boolean add(Object element, boolean highPriority) {
        boolean woke;
        if (highPriority) {
            highQueue().add(element);
            woke = wake();
        } else {
            woke = addNormal(element);
        }
        MailboxDepth d = depth;
        if (d != null) {
            d.added();
        }
        return woke;
    }

    /**
     * Appends to the normal-priority queue: any thread, any number at once.
     *
     * @return whether the actor was idle: the caller now holds its turn and must submit it
     */
    final boolean addNormal(Object element) {
        QueueNode node = new QueueNode(element);
        return linkAfter(swapTail(node), node);
    }

    /**
     * The first half of a send: makes {@code node} the tail. Until {@link #linkAfter} the node is queued but not
     * reachable from the head; a sender may be descheduled between the two.
     *
     * @return the tail before: what {@link #linkAfter} needs
     */
    final QueueNode swapTail(QueueNode node) {
        return exchangeTail(node);
    }

    /**
     * The second half of a send: makes {@code node} reachable from the node that was the tail before it.
     *
     * @param previous what {@link #swapTail} returned for {@code node}
     * @return whether the actor was idle: the caller now holds its turn and must submit it
     */
    final boolean linkAfter(QueueNode previous, QueueNode node) {
        if (previous == IDLE) {
            // no turn runs and every message was taken: the node becomes the head at once, so the turn this sender
            // now submits starts at it and never reads the taken node before it (a cache miss where actors are many,
            // and a link from an old node to a young one for the collector to track). The taken node links to
            // itself, which sends a walker that stood on it back to the head.
            QueueNode taken = headAcquire();
            releaseHead(node);
            if (taken != null) {
                taken.unlink();
            }
            return true;
        }
        if (previous == null) {
            // the first message ever: its node is where the turn starts
            releaseHead(node);
        } else {
            previous.link(node);
        }
        return false;
    }

    /**
     * Makes sure a turn will look at the status and queues after this call: appends a node that carries no message,
     * which only the turn takes (and a drain once the actor is destroyed), so that the running turn sees it, or whoever
     * finds the actor idle schedules it through the one exchange that also queues.
     *
     * @return whether the actor was idle: the caller now holds its turn and must submit it
     */
    final boolean wake() {
        return addNormal(WAKE);
    }

    /**
     * The holder of the turn gives it up if nothing was queued since its last take found the queue empty.
     *
     * @return true when the actor is idle now; false when a sender queued meanwhile and the holder keeps the turn
     */
    final boolean tryIdle() {
        QueueNode h = headAcquire();
        // the head has had its message taken, unless it was just queued (the first node ever, or one that woke the actor)
        return (h == null || !h.holdsValue()) && compareAndSetTail(h, IDLE);
    }

    /** @return whether no turn holds the actor (and none is submitted) */
    final boolean isUnscheduled() {
        return tailVolatile() == IDLE;
    }

    private ConcurrentLinkedQueue<Object> highQueue() {
        ConcurrentLinkedQueue<Object> q = highPriorityMsgs;
        if (q != null) {
            return q;
        }
        ConcurrentLinkedQueue<Object> created = new ConcurrentLinkedQueue<>();
        Object witness = HIGH.compareAndExchange(this, null, created);
        return witness == null ? created : castQueue(witness);
    }

    @SuppressWarnings("unchecked")
    private static ConcurrentLinkedQueue<Object> castQueue(Object o) {
        return (ConcurrentLinkedQueue<Object>) o;
    }

    /** @return the node the turn reached; null while no message was ever queued */
    private QueueNode headOrNull() {
        QueueNode h = headAcquire();
        QueueNode t = tailVolatile();
        if (h != null || t == null || t == IDLE) {
            return h;
        }
        // the first sender swapped the tail and is about to publish the head
        int spins = 0;
        while ((h = headAcquire()) == null) {
            spins = QueueNode.backOff(spins);
        }
        return h;
    }

    final boolean hasMessages() {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return normalHasMessages() || (high != null && !high.isEmpty());
    }

    private boolean normalHasMessages() {
        QueueNode t = tailVolatile();
        if (t == null || t == IDLE) {
            return false;
        }
        QueueNode h = headAcquire();
        return t != h || h.holdsValue();
    }

    /**
     * Takes the next message for the holder of the turn before the actor is destroyed (the only one to count plainly).
     *
     * @return the message; {@link #WAKE} for a wake-up, which tells the turn to look at the status again; null when
     *     the queues are empty
     */
    final Object pollTurn() {
        Object element = pollEither();
        MailboxDepth d = depth;
        if (element != null && d != null && element != WAKE) {
            d.takenByOwner();
        }
        return element;
    }

    private Object pollEither() {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        Object element = high == null ? null : high.poll();
        return element != null ? element : pollNormal();
    }

    /**
     * The turn takes the oldest normal-priority message, moving the head past it (and past any taken by others). It
     * waits only briefly for a sender between its tail swap and its link (descheduled there, perhaps, for a whole time
     * slice): a short spin and one yield, then it returns null as for an empty queue, and the turn's {@link #tryIdle}
     * fails on the moved tail, so the holder keeps the turn and submits it again behind the worker's other turns.
     */
    private Object pollNormal() {
        QueueNode h = headAcquire();
        if (h == null) {
            // no message yet, or the first sender ever has swapped the tail and not yet published the head
            return null;
        }
        MailboxDepth d = depth;
        boolean shared = d != null && d.dropsOldest();
        // the head still holds its message when it is the first node ever, or the one that woke the idle actor
        Object element = shared ? h.claim() : h.take();
        while (element == null) {
            QueueNode next = h.next();
            if (next == null) {
                if (tailVolatile() == h) {
                    return null;
                }
                // the next sender is between its swap and its link: a brief wait, then the turn gives way
                next = h.nextAfterBriefWait();
                if (next == null) {
                    return null;
                }
            }
            releaseHead(next);
            h.unlink();
            element = shared ? next.claim() : next.take();
            h = next;
        }
        return element;
    }

    /**
     * Hands every queued message to {@code sink}, counting each as taken, once the actor is destroyed: no turn takes
     * any more, several drains may run at once and each message goes to one of them. The head moves to the last node
     * reached, so the nodes of the messages told are not kept by the mailbox (which a sender's stale reference may
     * keep alive).
     */
    final void drain(Consumer<Object> sink) {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        Object element;
        while (high != null && (element = high.poll()) != null) {
            taken(sink, element);
        }
        QueueNode start = headOrNull();
        QueueNode last = start;
        for (QueueNode x = start; x != null; x = following(x)) {
            element = x.claim();
            if (element != null && element != WAKE) {
                taken(sink, element);
            }
            last = x;
        }
        if (last != start) {
            // drains racing each other only ever move it forward: a drain that started from an older head fails here
            compareAndSetHead(start, last);
        }
    }

    private void taken(Consumer<Object> sink, Object element) {
        MailboxDepth d = depth;
        if (d != null) {
            d.taken();
        }
        sink.accept(element);
    }

    /**
     * Takes the oldest normal-priority message still queued, for a {@code DROP_OLDEST} sender, without moving the
     * head: the walk starts at the node the last such sender took, unless the turn has moved past it.
     *
     * @return the message, or null when none is queued
     */
    final Object claimOldest(MailboxDepth d) {
        QueueNode x = d.dropHint();
        if (x == null || x.next() == x) {
            x = headOrNull();
        }
        while (x != null) {
            Object element = x.claimMessage();
            if (element != null) {
                d.dropHint(x);
                return element;
            }
            x = following(x);
        }
        return null;
    }

    /** @return the node after {@code x} for a walker that does not move the head; null when x is the tail */
    private QueueNode following(QueueNode x) {
        QueueNode next = x.next();
        if (next == x) {
            // the turn moved past x meanwhile: what x led to is at or after the head
            return headOrNull();
        }
        if (next == null) {
            QueueNode t = tailVolatile();
            // while idle every node is linked and the head is the last one
            return t == x || t == IDLE ? null : x.awaitNext();
        }
        return next;
    }

    /** @return messages queued: O(1) when the depth is counted, otherwise the queues are walked */
    final int queued() {
        MailboxDepth d = depth;
        if (d != null) {
            return Math.max(0, d.pending());
        }
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        int count = high == null ? 0 : high.size();
        QueueNode x = headOrNull();
        while (x != null) {
            if (x.holdsMessage()) {
                count++;
            }
            x = following(x);
        }
        return count;
    }

    // ---------------------------------------------------------------- where the two ends live
    // The accessors below are the only code that touches the ends' fields. A mailbox of a dispatcher with padded
    // mailboxes (PaddedTbActorMailbox) overrides each of them to use fields on cache lines of their own; while that
    // class is never loaded the JIT binds these calls directly, so a compact mailbox pays nothing for them.

    /** @return the tail, a volatile read */
    QueueNode tailVolatile() {
        return tail;
    }

    /** @return the tail before {@code node} replaced it (one atomic exchange) */
    QueueNode exchangeTail(QueueNode node) {
        return (QueueNode) TAIL.getAndSet(this, node);
    }

    boolean compareAndSetTail(QueueNode expected, QueueNode node) {
        return TAIL.compareAndSet(this, expected, node);
    }

    QueueNode headAcquire() {
        return (QueueNode) HEAD.getAcquire(this);
    }

    void releaseHead(QueueNode node) {
        HEAD.setRelease(this, node);
    }

    boolean compareAndSetHead(QueueNode expected, QueueNode node) {
        return HEAD.compareAndSet(this, expected, node);
    }
}
