package io.tbactors.core;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A hashed timing wheel that finds idle actors without a timer per actor. Each passivating actor sits in the slot
 * of its deadline; a tick looks only at the slot that came due, so an actor is examined about once per idle
 * period (plus once per turn of the wheel when its period is longer than the wheel), whatever the number of actors.
 *
 * <p>Only the wheel's own task (one periodic task: never two runs at once) touches the slots. Other threads hand
 * actors in through a concurrent intake queue that each tick moves into the slots first, so no actor can be added
 * to a slot while that slot is being emptied and lost.
 */
final class IdleWheel implements Runnable {

    private static final int SLOTS = 4096;

    private final ActorRuntime runtime;
    private final long tickNanos;
    private final long origin;
    private final ConcurrentLinkedQueue<Entry> intake = new ConcurrentLinkedQueue<>();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Entry>[] slots = new ArrayDeque[SLOTS];
    private final AtomicBoolean started = new AtomicBoolean();
    private long processedTick;

    IdleWheel(ActorRuntime runtime, long tickNanos) {
        this.runtime = runtime;
        this.tickNanos = tickNanos;
        this.origin = runtime.nanoTime();
    }

    void add(TbActorMailbox mailbox, long deadlineNanos) {
        intake.add(new Entry(mailbox, deadlineNanos));
        if (started.compareAndSet(false, true)) {
            runtime.scheduler.scheduleAtFixedRate(this, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
        }
    }

    private long tickOf(long nanos) {
        return Math.max(0, (nanos - origin + tickNanos - 1) / tickNanos);
    }

    @Override
    public void run() {
        long now = runtime.nanoTime();
        long nowTick = (now - origin) / tickNanos;
        long from = processedTick + 1;
        Entry entry;
        while ((entry = intake.poll()) != null) {
            // an entry due already goes to the first slot this run visits
            place(entry, Math.max(tickOf(entry.deadline()), from));
        }
        // after a long pause visit each slot at most once
        long to = Math.min(nowTick, from + SLOTS - 1);
        processedTick = Math.max(processedTick, nowTick);
        for (long tick = from; tick <= to; tick++) {
            int index = (int) (tick % SLOTS);
            ArrayDeque<Entry> due = slots[index];
            if (due == null || due.isEmpty()) {
                continue;
            }
            slots[index] = null;
            for (Entry e : due) {
                examine(e.mailbox(), now);
            }
        }
    }

    private void place(Entry entry, long tick) {
        int index = (int) (tick % SLOTS);
        ArrayDeque<Entry> slot = slots[index];
        if (slot == null) {
            slot = new ArrayDeque<>();
            slots[index] = slot;
        }
        slot.add(entry);
    }

    private void examine(TbActorMailbox mailbox, long now) {
        MailboxExtras e = mailbox.extras();
        long timeout = e.idleTimeoutNanos;
        if (mailbox.isStopRequested()) {
            e.leaveIdleWheel();
            return;
        }
        if (timeout == 0) {
            e.leaveIdleWheel();
            // a setIdleTimeout that ran meanwhile saw the actor still here and did not add it: take it back then
            timeout = e.idleTimeoutNanos;
            if (timeout == 0 || !e.enterIdleWheel()) {
                return;
            }
        }
        long deadline = e.lastActivity + timeout;
        if (deadline - now <= 0 && mailbox.isIdle()) {
            e.leaveIdleWheel();
            runtime.passivate(mailbox);
        } else {
            // back through the intake: placed by the next run, so this slot is never refilled while it is emptied
            intake.add(new Entry(mailbox, Math.max(deadline, now + tickNanos)));
        }
    }

    private record Entry(TbActorMailbox mailbox, long deadline) {
    }
}
