package io.tbactors.core;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbTimer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** What an actor waits for: its timers, idle passivation, and the watchers (pending asks) told when it stops. */
final class ActorTimers {

    private ActorTimers() {
    }

    static TbTimer schedule(TbActorMailbox mailbox, TbActorMsg msg, Duration delay, Duration period) {
        Objects.requireNonNull(msg, "timer message must not be null");
        Objects.requireNonNull(delay, "timer delay must not be null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("timer delay must not be negative, got " + delay);
        }
        if (period != null && (period.isZero() || period.isNegative())) {
            throw new IllegalArgumentException("timer period must be positive, got " + period);
        }
        MailboxExtras e = mailbox.extras();
        ActorTimer timer = new ActorTimer(e.timers, period != null);
        e.timers.add(timer);
        // a periodic timer's ticks carry the timer, so a tick queued before cancel() is withdrawn at processing time
        Delivery delivery = period == null ? null : timer;
        Runnable fire = () -> {
            if (timer.fire()) {
                mailbox.enqueue(msg, false, false, delivery);
            }
        };
        long delayNanos = delay.toNanos();
        ActorRuntime runtime = mailbox.runtime;
        try {
            timer.bind(period == null
                    ? runtime.scheduler.schedule(fire, delayNanos, TimeUnit.NANOSECONDS)
                    : runtime.scheduler.scheduleAtFixedRate(fire, delayNanos, period.toNanos(), TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException rejected) {
            timer.cancel();
            throw new IllegalStateException("Cannot schedule a timer for [" + mailbox.getSelf() + "]: the actor system is stopped",
                    rejected);
        }
        if (mailbox.isStopRequested()) {
            timer.cancel();
        }
        return timer;
    }

    static void setIdleTimeout(TbActorMailbox mailbox, Duration idleTimeout) {
        if (idleTimeout != null && (idleTimeout.isZero() || idleTimeout.isNegative())) {
            throw new IllegalArgumentException("idle timeout must be positive (or null to turn passivation off), got " + idleTimeout);
        }
        MailboxExtras e = mailbox.extras();
        e.lastActivity = mailbox.runtime.nanoTime();
        e.idleTimeoutNanos = idleTimeout == null ? 0 : idleTimeout.toNanos();
        if (idleTimeout != null) {
            mailbox.runtime.idleWheel.add(mailbox, e.lastActivity + e.idleTimeoutNanos);
        }
    }

    /**
     * Forgets everything the current instance or init attempt scheduled: its timers, its idle timeout and its place
     * in the idle wheel. A new instance (restart) or a new init attempt starts with none of it, and a destroyed actor
     * is held by none of it.
     */
    static void forgetScheduled(TbActorMailbox mailbox) {
        MailboxExtras e = mailbox.extrasIfAny();
        if (e != null) {
            cancelTimers(e);
            e.idleTimeoutNanos = 0;
            mailbox.runtime.idleWheel.remove(e);
        }
    }

    /** @return how many timers of this actor are live */
    static int liveTimers(TbActorMailbox mailbox) {
        MailboxExtras e = mailbox.extrasIfAny();
        return e == null ? 0 : e.timers.size();
    }

    private static void cancelTimers(MailboxExtras e) {
        for (ActorTimer timer : e.timers) {
            timer.cancel();
        }
    }

    /**
     * Registers something to tell when the actor stops.
     *
     * @return false when the actor is already destroyed (the watcher was not kept)
     */
    static boolean addStopWatcher(TbActorMailbox mailbox, MailboxExtras.StopWatcher watcher) {
        MailboxExtras e = mailbox.extras();
        e.watchers.add(watcher);
        if (mailbox.isDestroyed()) {
            e.watchers.remove(watcher);
            return false;
        }
        return true;
    }

    static void removeStopWatcher(TbActorMailbox mailbox, MailboxExtras.StopWatcher watcher) {
        MailboxExtras e = mailbox.extrasIfAny();
        if (e != null) {
            e.watchers.remove(watcher);
        }
    }

    static void notifyWatchers(TbActorMailbox mailbox, MailboxExtras e, io.tbactors.api.TbActorStopReason reason) {
        for (MailboxExtras.StopWatcher watcher : e.watchers) {
            e.watchers.remove(watcher);
            watcher.onTargetStopped(mailbox.getSelf(), reason);
        }
    }

    /** Arms the pending asks' timeouts on the JDK's own timer: the system stop shut down the runtime's scheduler. */
    static void timeAsksOutWithoutScheduler(TbActorMailbox mailbox) {
        MailboxExtras e = mailbox.extrasIfAny();
        if (e == null) {
            return;
        }
        for (MailboxExtras.StopWatcher watcher : e.watchers) {
            if (watcher instanceof AskReplyRef<?> ask) {
                ask.timeOutWithoutScheduler();
            }
        }
    }
}
