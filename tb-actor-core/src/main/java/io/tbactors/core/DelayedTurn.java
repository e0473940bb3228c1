package io.tbactors.core;

import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A turn submitted after a delay. Exactly one of the scheduler (when the delay is over) and a stop (which wants the
 * destroying turn now) claims it, and only the claimer submits the turn: a scheduled task that is already running
 * can still be "cancelled", so the future's own answer cannot decide who holds the turn.
 */
final class DelayedTurn extends AtomicBoolean implements Runnable {
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
