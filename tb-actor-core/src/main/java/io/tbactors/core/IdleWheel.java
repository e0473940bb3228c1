package io.tbactors.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A hashed timing wheel that finds idle actors without a timer per actor. Each passivating actor sits in the slot
 * of its deadline; a tick looks only at the slots that came due, so an actor is examined about once per idle
 * period (plus once per turn of the wheel when its period is longer than the wheel), whatever the number of actors.
 *
 * <p>Each slot is an intrusive doubly linked list through the actors' {@link MailboxExtras}, so an actor is added,
 * and removed when it stops, in constant time and without an entry object; the wheel holds an actor only while it is
 * in a slot, and a stopped actor leaves at once instead of staying reachable until its deadline. All changes to the
 * slots happen under the wheel's monitor; a tick takes the due actors out under it and examines them outside it (a
 * passivation stops the actor, which calls {@link #remove}).
 */
final class IdleWheel implements Runnable {

    private static final int SLOTS = 4096;

    private final ActorRuntime runtime;
    private final long tickNanos;
    private final long origin;
    // guarded by this
    private final MailboxExtras[] slots = new MailboxExtras[SLOTS];
    private final AtomicBoolean started = new AtomicBoolean();
    // guarded by this
    private long processedTick;

    IdleWheel(ActorRuntime runtime, long tickNanos) {
        this.runtime = runtime;
        this.tickNanos = tickNanos;
        this.origin = runtime.nanoTime();
    }

    /** Puts the actor in the slot of its deadline, unless it is in the wheel already. */
    void add(TbActorMailbox mailbox, long deadlineNanos) {
        MailboxExtras e = mailbox.extras();
        synchronized (this) {
            if (e.wheelMailbox != null) {
                return;
            }
            // a deadline due already goes to the first slot the next tick visits
            int slot = (int) (Math.max(tickOf(deadlineNanos), processedTick + 1) % SLOTS);
            e.wheelMailbox = mailbox;
            e.wheelSlot = slot;
            e.wheelPrev = null;
            e.wheelNext = slots[slot];
            if (e.wheelNext != null) {
                e.wheelNext.wheelPrev = e;
            }
            slots[slot] = e;
        }
        if (!started.get() && started.compareAndSet(false, true)) {
            runtime.scheduler.scheduleAtFixedRate(this, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Takes the actor out of the wheel if it is there, so the wheel no longer holds it. */
    synchronized void remove(MailboxExtras e) {
        unlink(e);
    }

    // guarded by this
    private void unlink(MailboxExtras e) {
        if (e.wheelMailbox == null) {
            return;
        }
        if (e.wheelPrev != null) {
            e.wheelPrev.wheelNext = e.wheelNext;
        } else {
            slots[e.wheelSlot] = e.wheelNext;
        }
        if (e.wheelNext != null) {
            e.wheelNext.wheelPrev = e.wheelPrev;
        }
        e.wheelPrev = null;
        e.wheelNext = null;
        e.wheelMailbox = null;
    }

    /** @return whether the actor is in the wheel now (for tests) */
    synchronized boolean contains(TbActorMailbox mailbox) {
        MailboxExtras e = mailbox.extrasIfAny();
        return e != null && e.wheelMailbox == mailbox;
    }

    private long tickOf(long nanos) {
        return Math.max(0, (nanos - origin + tickNanos - 1) / tickNanos);
    }

    @Override
    public void run() {
        long now = runtime.nanoTime();
        List<TbActorMailbox> due = new ArrayList<>();
        synchronized (this) {
            long nowTick = (now - origin) / tickNanos;
            long from = processedTick + 1;
            // after a long pause visit each slot at most once
            long to = Math.min(nowTick, from + SLOTS - 1);
            processedTick = Math.max(processedTick, nowTick);
            for (long tick = from; tick <= to; tick++) {
                int index = (int) (tick % SLOTS);
                MailboxExtras e;
                while ((e = slots[index]) != null) {
                    due.add(e.wheelMailbox);
                    unlink(e);
                }
            }
        }
        for (TbActorMailbox mailbox : due) {
            examine(mailbox, now);
        }
    }

    private void examine(TbActorMailbox mailbox, long now) {
        MailboxExtras e = mailbox.extras();
        long timeout = e.idleTimeoutNanos;
        if (timeout == 0 || mailbox.isStopRequested()) {
            return;
        }
        long deadline = e.lastActivity + timeout;
        if (deadline - now <= 0 && mailbox.isIdle()) {
            runtime.passivate(mailbox);
        } else {
            add(mailbox, Math.max(deadline, now + tickNanos));
            if (mailbox.isStopRequested()) {
                // stopped since the look above: its destroy may have tried to take it out before it was back in
                remove(e);
            }
        }
    }
}
