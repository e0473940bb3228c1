package io.tbactors.core;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A hashed timing wheel that finds idle actors without a timer per actor. Each passivating actor sits in the slot
 * of its deadline; a tick looks only at the slot that came due, so an actor is examined about once per idle
 * period (plus once per turn of the wheel when its period is longer than the wheel), whatever the number of actors.
 */
final class IdleWheel implements Runnable {

    private static final int SLOTS = 4096;

    private final DefaultTbActorSystem system;
    private final long tickNanos;
    private final long origin = System.nanoTime();
    private final AtomicReferenceArray<ConcurrentLinkedQueue<TbActorMailbox>> slots = new AtomicReferenceArray<>(SLOTS);
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile long processedTick;

    IdleWheel(DefaultTbActorSystem system, long tickNanos) {
        this.system = system;
        this.tickNanos = tickNanos;
    }

    void add(TbActorMailbox mailbox, long deadlineNanos) {
        if (started.compareAndSet(false, true)) {
            system.getScheduler().scheduleAtFixedRate(this, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
        }
        long tick = Math.max(tickOf(deadlineNanos), processedTick + 1);
        slot(tick).add(mailbox);
    }

    private long tickOf(long nanos) {
        return Math.max(0, (nanos - origin + tickNanos - 1) / tickNanos);
    }

    private ConcurrentLinkedQueue<TbActorMailbox> slot(long tick) {
        int index = (int) (tick % SLOTS);
        ConcurrentLinkedQueue<TbActorMailbox> q = slots.get(index);
        if (q == null) {
            slots.compareAndSet(index, null, new ConcurrentLinkedQueue<>());
            q = slots.get(index);
        }
        return q;
    }

    @Override
    public void run() {
        long now = System.nanoTime();
        long nowTick = (now - origin) / tickNanos;
        long from = processedTick + 1;
        // after a long pause visit each slot at most once
        long to = Math.min(nowTick, from + SLOTS - 1);
        processedTick = nowTick;
        for (long tick = from; tick <= to; tick++) {
            ConcurrentLinkedQueue<TbActorMailbox> due = slots.getAndSet((int) (tick % SLOTS), null);
            if (due == null) {
                continue;
            }
            TbActorMailbox mailbox;
            while ((mailbox = due.poll()) != null) {
                examine(mailbox, now);
            }
        }
    }

    private void examine(TbActorMailbox mailbox, long now) {
        MailboxExtras e = mailbox.extras();
        long timeout = e.idleTimeoutNanos;
        if (mailbox.isStopRequested() || timeout == 0) {
            e.inIdleWheel = false;
            return;
        }
        long deadline = e.lastActivity + timeout;
        if (deadline - now <= 0 && mailbox.isIdle()) {
            e.inIdleWheel = false;
            system.passivate(mailbox);
        } else {
            add(mailbox, Math.max(deadline, now + tickNanos));
        }
    }
}
