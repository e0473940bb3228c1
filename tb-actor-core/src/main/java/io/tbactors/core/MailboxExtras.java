package io.tbactors.core;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorStopReason;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state few actors need (children, timers, pending asks, restart budget, delayed turns, stop cause,
 * passivation), kept out of the mailbox and allocated on first use, so an ordinary idle leaf actor pays one
 * reference for all of it. It is private to its mailbox, so it is also the monitor that guards the children list:
 * no lock is ever taken on the public actor reference.
 */
final class MailboxExtras {

    /** Timers of the actor, cancelled when it stops or restarts. */
    final Set<ActorTimer> timers = ConcurrentHashMap.newKeySet();

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

    /** The pending delayed turn (init retry or restart backoff), which holds the actor's turn until claimed. */
    volatile DelayedTurn delayedTurn;

    /** Idle period after which the actor is passivated, 0 when never. */
    volatile long idleTimeoutNanos;

    /** When the actor last finished a turn (nanoTime). */
    volatile long lastActivity = System.nanoTime();

    /** The mailbox while the actor sits in the idle wheel, otherwise null; the wheel's fields are guarded by the wheel. */
    TbActorMailbox wheelMailbox;
    MailboxExtras wheelPrev;
    MailboxExtras wheelNext;
    int wheelSlot;

    private static final VarHandle STOP_REASON;

    static {
        try {
            STOP_REASON = MethodHandles.lookup().findVarHandle(MailboxExtras.class, "stopReason", TbActorStopReason.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @return whether this call set the stop reason (the first stop request wins) */
    boolean claimStopReason(TbActorStopReason reason) {
        return STOP_REASON.compareAndSet(this, null, reason);
    }

    /** Something to tell when the watched actor stops. */
    interface StopWatcher {
        void onTargetStopped(TbActorId target, TbActorStopReason reason);
    }
}
