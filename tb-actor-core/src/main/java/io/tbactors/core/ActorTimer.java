package io.tbactors.core;

import io.tbactors.api.TbTimer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * A timer. One state word decides between firing and cancelling, so {@link #cancel()} returning true means the
 * actor will not begin to process the timer's message afterwards: a one-shot timer's message is either queued by
 * a fire that won, or never; a periodic timer's queued ticks are withdrawn at processing time.
 */
final class ActorTimer implements TbTimer, Delivery {
    private static final int ACTIVE = 0;
    private static final int FIRED = 1;
    private static final int CANCELLED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ActorTimer.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Set<ActorTimer> owner;
    private final boolean periodic;
    private volatile Future<?> future;
    private volatile int state;

    ActorTimer(Set<ActorTimer> owner, boolean periodic) {
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
