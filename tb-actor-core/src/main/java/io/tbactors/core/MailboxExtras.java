package io.tbactors.core;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbTimer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The state few actors need (children, timers, pending asks, restart budget, delayed turns, stop cause,
 * passivation), kept out of the mailbox and allocated on first use, so an ordinary idle leaf actor pays one
 * reference for all of it. It is private to its mailbox, so it is also the monitor that guards the children list:
 * no lock is ever taken on the public actor reference.
 */
final class MailboxExtras {

    /** Timers of the actor, cancelled when it stops or restarts. */
    final Set<Timer> timers = ConcurrentHashMap.newKeySet();

    /** Pending requests to the actor, failed when it stops. */
    final Set<StopWatcher> watchers = ConcurrentHashMap.newKeySet();

    /** Head of the intrusive list of children (through their mailboxes); guarded by this object's monitor. */
    TbActorMailbox firstChild;

    /** Length of the children list; guarded by this object's monitor. */
    int childCount;

    /** Why the actor stops: set once, by the first stop request ({@link #claimStopReason}). */
    volatile TbActorStopReason stopReason;

    /** The creator, kept only by actors that may restart (their class overrides {@code onProcessFailure}). */
    volatile TbActorCreator creator;

    /** The type of an instance dropped without a successor, for reports after it is gone. */
    volatile String lastActorType;

    /** Failed init attempts since the last reset (a restart, or giving up); touched only by the turn owner. */
    int initFailures;

    /** Restarts counted in the current window; touched only by the turn owner. */
    int restartsInWindow;

    /** Start of the current restart window (nanoTime); touched only by the turn owner. */
    long restartWindowStart;

    /** The failure that stopped the actor, or that made its init fail, if any. */
    volatile Throwable stopCause;

    /** The pending delayed turn (init retry or restart backoff), which holds the actor's SCHEDULED bit until claimed. */
    volatile DelayedTurn delayedTurn;

    /** Idle period after which the actor is passivated, 0 when never. */
    volatile long idleTimeoutNanos;

    /** When the actor last finished a turn (nanoTime). */
    volatile long lastActivity = System.nanoTime();

    /** Whether the actor is currently in the idle wheel; changed only through {@link #enterIdleWheel()}. */
    private volatile boolean inIdleWheel;

    private static final VarHandle IN_IDLE_WHEEL;
    private static final VarHandle STOP_REASON;

    static {
        try {
            IN_IDLE_WHEEL = MethodHandles.lookup().findVarHandle(MailboxExtras.class, "inIdleWheel", boolean.class);
            STOP_REASON = MethodHandles.lookup().findVarHandle(MailboxExtras.class, "stopReason", TbActorStopReason.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @return whether this call set the stop reason (the first stop request wins) */
    boolean claimStopReason(TbActorStopReason reason) {
        return STOP_REASON.compareAndSet(this, null, reason);
    }

    /** @return whether the caller must add the actor to the idle wheel (it was not there) */
    boolean enterIdleWheel() {
        return IN_IDLE_WHEEL.compareAndSet(this, false, true);
    }

    void leaveIdleWheel() {
        inIdleWheel = false;
    }

    /** Something to tell when the watched actor stops. */
    interface StopWatcher {
        void onTargetStopped(TbActorId target, TbActorStopReason reason);
    }

    /**
     * A turn submitted after a delay. Exactly one of the scheduler (when the delay is over) and a stop (which wants the
     * destroying turn now) claims it, and only the claimer submits the turn: a scheduled task that is already running
     * can still be "cancelled", so the future's own answer cannot decide who holds SCHEDULED.
     */
    static final class DelayedTurn extends AtomicBoolean implements Runnable {
        private static final long serialVersionUID = 1L;
        private final transient TbActorMailbox mailbox;
        private transient volatile Future<?> future;

        DelayedTurn(TbActorMailbox mailbox) {
            this.mailbox = mailbox;
        }

        void bind(Future<?> scheduled) {
            this.future = scheduled;
        }

        /** @return whether the caller now holds the turn (and must submit it) */
        boolean claim() {
            return compareAndSet(false, true);
        }

        /** Claims the turn ahead of its delay; the caller submits it. */
        boolean claimEarly() {
            if (!claim()) {
                return false;
            }
            Future<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            return true;
        }

        @Override
        public void run() {
            if (claim()) {
                mailbox.submitOwnedTurn();
            }
        }
    }

    /**
     * A timer. One state word decides between firing and cancelling, so {@link #cancel()} returning true means the
     * actor will not begin to process the timer's message afterwards: a one-shot timer's message is either queued by
     * a fire that won, or never; a periodic timer's queued ticks are withdrawn at processing time.
     */
    static final class Timer implements TbTimer, Delivery {
        private static final int ACTIVE = 0;
        private static final int FIRED = 1;
        private static final int CANCELLED = 2;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Timer.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Set<Timer> owner;
        private final boolean periodic;
        private volatile Future<?> future;
        private volatile int state;

        Timer(Set<Timer> owner, boolean periodic) {
            this.owner = owner;
            this.periodic = periodic;
        }

        boolean isPeriodic() {
            return periodic;
        }

        void bind(Future<?> scheduled) {
            this.future = scheduled;
            if (state != ACTIVE) {
                scheduled.cancel(false);
            }
        }

        /** @return whether this firing may queue the message; a one-shot timer is done after this */
        boolean fire() {
            if (!periodic) {
                if (!STATE.compareAndSet(this, ACTIVE, FIRED)) {
                    return false;
                }
                owner.remove(this);
                return true;
            }
            return state == ACTIVE;
        }

        @Override
        public boolean stillWanted() {
            return state != CANCELLED;
        }

        @Override
        public boolean cancel() {
            if (!STATE.compareAndSet(this, ACTIVE, CANCELLED)) {
                return false;
            }
            owner.remove(this);
            Future<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            return true;
        }

        @Override
        public boolean isCancelled() {
            return state == CANCELLED;
        }
    }
}
