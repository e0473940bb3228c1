package io.tbactors.core;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A mailbox's status word and its rarely used state. The status is one {@code int} changed only by atomic bit
 * operations (whether a turn is held is told by the queue's tail instead, see {@link MailboxQueues}); the table of who
 * sets and clears each bit, and the rules they give, are in {@link TbActorMailbox}. The stop reason, the creator of an
 * actor that may restart, timers, children and the like live in {@link MailboxExtras}, created on first use, so an
 * actor that needs none of them pays one null field.
 */
abstract class MailboxStatus extends MailboxQueues {

    private static final long serialVersionUID = 1L;

    static final int INITIALIZED = 2;
    static final int STOP_REQUESTED = 4;
    static final int DESTROYED = 8;
    static final int ATTACHED = 16;
    static final int INIT_FAILED = 32;
    /**
     * The current instance was not destroyed since it was attached or since init ran on it again (an update's re-init
     * after INIT_FAILED): only then is it destroyed, so an instance is never destroyed twice.
     */
    static final int NEEDS_DESTROY = 64;

    private static final VarHandle STATUS;
    private static final VarHandle EXTRAS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATUS = lookup.findVarHandle(MailboxStatus.class, "status", int.class);
            EXTRAS = lookup.findVarHandle(MailboxStatus.class, "extras", MailboxExtras.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int status;
    private volatile MailboxExtras extras;

    MailboxStatus(TbMailboxBound bound, boolean countDepth) {
        super(bound, countDepth);
    }

    final int status() {
        return status;
    }

    /** @return whether {@code expected} was the status and is now {@code next} */
    final boolean casStatus(int expected, int next) {
        return STATUS.compareAndSet(this, expected, next);
    }

    /** @return the status before the bits were set */
    final int setBits(int bits) {
        return (int) STATUS.getAndBitwiseOr(this, bits);
    }

    final void clearBits(int bits) {
        STATUS.getAndBitwiseAnd(this, ~bits);
    }

    final boolean isStopRequested() {
        return (status & STOP_REQUESTED) != 0;
    }

    final boolean isDestroyed() {
        return (status & DESTROYED) != 0;
    }

    final boolean isIdle() {
        return isUnscheduled() && !hasMessages();
    }

    final String stateName() {
        int s = status;
        if ((s & DESTROYED) != 0) {
            return "DESTROYED";
        } else if ((s & STOP_REQUESTED) != 0) {
            return "STOPPING";
        } else if ((s & INIT_FAILED) != 0) {
            return "INIT_FAILED";
        } else if ((s & INITIALIZED) != 0) {
            return "ACTIVE";
        }
        return "INITIALIZING";
    }

    /** @return the rarely used state, created on first use */
    final MailboxExtras extras() {
        MailboxExtras e = extras;
        if (e == null) {
            MailboxExtras created = new MailboxExtras();
            Object witness = EXTRAS.compareAndExchange(this, null, created);
            e = witness == null ? created : (MailboxExtras) witness;
        }
        return e;
    }

    /** @return the rarely used state, or null when none was needed yet */
    final MailboxExtras extrasIfAny() {
        return extras;
    }

    /** @return whether this call set the stop reason (the first stop request wins) */
    final boolean claimStopReason(TbActorStopReason reason) {
        return extras().claimStopReason(reason);
    }

    final TbActorStopReason currentStopReason() {
        MailboxExtras e = extras;
        TbActorStopReason reason = e == null ? null : e.stopReason;
        return reason == null ? TbActorStopReason.STOPPED : reason;
    }

    /** @return the creator when the actor may restart, otherwise null */
    final TbActorCreator creator() {
        MailboxExtras e = extras;
        return e == null ? null : e.creator;
    }
}
