package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The padded mailbox: the same mailbox as {@link TbActorMailbox}, with the two ends of its normal-priority queue moved
 * onto cache lines of their own. The senders' exchange writes the tail's line, the turn writes the head's line once
 * per message, and the rest of the mailbox, which both only read while messages flow, stays on lines neither writes.
 * That is what a few busy actors fed by other threads need: in the compact mailbox the ends sit a few bytes from each
 * other and from the fields every send and every turn reads, so each send and each take pulls the line away from the
 * other side. It costs about 200 bytes per actor, which is why it is a dispatcher's choice and not the default.
 *
 * <p>The JVM lays a class's fields out after its superclass's, and may reorder fields within one class, so each region
 * is a class of its own in the chain below: 64 bytes of padding, the head, 64 bytes, the tail, 64 bytes (the last
 * keeps the next object on the heap off the tail's line). Padding is made of {@code int}s, which fill any gap the
 * superclass left, so that the head cannot be placed into such a gap before the padding. The ends the compact mailbox
 * keeps in {@link MailboxQueues} stay null here: every access goes through the accessors this class overrides.
 */
final class PaddedMailboxes {

    private PaddedMailboxes() {
    }

    /**
     * Makes a padded mailbox. Typed as the compact one, so that the caller's class does not name {@link Padded}: the JVM
     * then loads it only when some dispatcher asks for padded mailboxes, and until then the JIT binds the queue's
     * accessors in {@link MailboxQueues} directly, as if no mailbox overrode them.
     */
    static TbActorMailbox create(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher,
                                 TbMailboxBound bound) {
        return new Padded(runtime, selfId, parent, dispatcher, bound);
    }

    /** The padding between the fields both sides read and the head. */
    @SuppressWarnings("unused")
    abstract static sealed class PadBeforeHead extends TbActorMailbox permits HeadField {
        private static final long serialVersionUID = 1L;
        int pa00;
        int pa01;
        int pa02;
        int pa03;
        int pa04;
        int pa05;
        int pa06;
        int pa07;
        int pa08;
        int pa09;
        int pa10;
        int pa11;
        int pa12;
        int pa13;
        int pa14;
        int pa15;

        PadBeforeHead(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
            super(runtime, selfId, parent, dispatcher, bound);
        }
    }

    /** The head: written by the turn only. */
    abstract static sealed class HeadField extends PadBeforeHead permits PadBeforeTail {
        private static final long serialVersionUID = 1L;
        @SuppressWarnings("unused") // through HEAD
        private QueueNode head;

        HeadField(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
            super(runtime, selfId, parent, dispatcher, bound);
        }
    }

    /** The padding between the head and the tail. */
    @SuppressWarnings("unused")
    abstract static sealed class PadBeforeTail extends HeadField permits TailField {
        private static final long serialVersionUID = 1L;
        int pb00;
        int pb01;
        int pb02;
        int pb03;
        int pb04;
        int pb05;
        int pb06;
        int pb07;
        int pb08;
        int pb09;
        int pb10;
        int pb11;
        int pb12;
        int pb13;
        int pb14;
        int pb15;

        PadBeforeTail(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
            super(runtime, selfId, parent, dispatcher, bound);
        }
    }

    /** The tail: swapped by every sender. */
    abstract static sealed class TailField extends PadBeforeTail permits Padded {
        private static final long serialVersionUID = 1L;
        @SuppressWarnings("unused") // through TAIL
        private volatile QueueNode tail;

        TailField(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
            super(runtime, selfId, parent, dispatcher, bound);
        }
    }

    /** The padding after the tail, and the accessors that use the fields above. */
    @SuppressWarnings("unused")
    static final class Padded extends TailField {
        private static final long serialVersionUID = 1L;

        private static final VarHandle TAIL;
        private static final VarHandle HEAD;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                TAIL = lookup.findVarHandle(TailField.class, "tail", QueueNode.class);
                HEAD = lookup.findVarHandle(HeadField.class, "head", QueueNode.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        int pc00;
        int pc01;
        int pc02;
        int pc03;
        int pc04;
        int pc05;
        int pc06;
        int pc07;
        int pc08;
        int pc09;
        int pc10;
        int pc11;
        int pc12;
        int pc13;
        int pc14;
        int pc15;

        Padded(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
            super(runtime, selfId, parent, dispatcher, bound);
        }

        @Override
        QueueNode tailVolatile() {
            return (QueueNode) TAIL.getVolatile(this);
        }

        @Override
        QueueNode exchangeTail(QueueNode node) {
            return (QueueNode) TAIL.getAndSet(this, node);
        }

        @Override
        boolean compareAndSetTail(QueueNode expected, QueueNode node) {
            return TAIL.compareAndSet(this, expected, node);
        }

        @Override
        QueueNode headAcquire() {
            return (QueueNode) HEAD.getAcquire(this);
        }

        @Override
        void releaseHead(QueueNode node) {
            HEAD.setRelease(this, node);
        }

        @Override
        boolean compareAndSetHead(QueueNode expected, QueueNode node) {
            return HEAD.compareAndSet(this, expected, node);
        }
    }
}
