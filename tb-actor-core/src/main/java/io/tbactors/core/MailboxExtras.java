package io.tbactors.core;

import io.tbactors.api.TbTimer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

/**
 * The state few actors need (timers, pending asks, restart budget and retries, stop cause, passivation), kept out of the mailbox itself
 * and allocated on first use, so an ordinary idle actor pays one reference for all of it.
 */
final class MailboxExtras {

    /** Timers of the actor, cancelled when it stops. */
    final Set<Timer> timers = ConcurrentHashMap.newKeySet();

    /** Pending requests to the actor, failed when it stops. */
    final Set<StopWatcher> watchers = ConcurrentHashMap.newKeySet();

    /** Restarts counted in the current window; touched only by the turn owner. */
    int restartsInWindow;

    /** Start of the current restart window (nanoTime); touched only by the turn owner. */
    long restartWindowStart;

    /** The failure that stopped the actor, if any. */
    volatile Throwable stopCause;

    /** A pending delayed turn (init retry or restart backoff) that holds the actor's SCHEDULED bit. */
    volatile java.util.concurrent.ScheduledFuture<?> initRetry;

    /** Idle period after which the actor is passivated, 0 when never. */
    volatile long idleTimeoutNanos;

    /** When the actor last finished a turn (nanoTime). */
    volatile long lastActivity = System.nanoTime();

    /** Whether the actor is currently in the idle wheel. */
    volatile boolean inIdleWheel;

    /** Something to tell when the watched actor stops. */
    interface StopWatcher {
        void onTargetStopped(io.tbactors.api.TbActorId target, io.tbactors.api.TbActorStopReason reason);
    }

    /** A timer: the scheduled task and whether it was cancelled. */
    static final class Timer implements TbTimer {
        private final Set<Timer> owner;
        private final boolean periodic;
        private volatile Future<?> future;
        private volatile boolean cancelled;

        Timer(Set<Timer> owner, boolean periodic) {
            this.owner = owner;
            this.periodic = periodic;
        }

        void bind(Future<?> scheduled) {
            this.future = scheduled;
            if (cancelled) {
                scheduled.cancel(false);
            }
        }

        /** @return whether the timer may still deliver; a one-shot timer is done after this */
        boolean fire() {
            if (cancelled) {
                return false;
            }
            if (!periodic) {
                cancelled = true;
                owner.remove(this);
            }
            return true;
        }

        @Override
        public boolean cancel() {
            if (cancelled) {
                return false;
            }
            cancelled = true;
            owner.remove(this);
            Future<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }
}
