package io.tbactors.core;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A mailbox's status word, every transition of it behind a named step, and the rarely used state. The status is one
 * {@code int} changed only by the atomic steps below; nothing outside this file changes it. Whether a turn is held is
 * told by the queue's tail instead ({@link MailboxQueues}: {@code linkAfter} returns true to the sender that takes an
 * idle actor's turn, {@code tryIdle} gives it up). The stop reason, the creator of an actor that may restart, timers,
 * children and the like live in {@link MailboxExtras}, created on first use, so an actor that needs none of them pays
 * one null field.
 *
 * <h2>The rules</h2>
 * <pre>
 *  bit             set by (step, caller)                          cleared by (step, caller)
 *  ATTACHED        becomeAttached: the creating thread, once       never
 *                  the creator returned an actor (and at restart)
 *  NEEDS_DESTROY   becomeAttached; beginInit: the turn, before     claimInstanceDestroy: the holder of the turn
 *                  each init                                       that destroys the instance (once per init)
 *  INITIALIZED     becomeInitialized: the turn, after init         becomeInitFailed / becomeUninitialized: the
 *                  returned                                        turn, at init failure / restart
 *  INIT_FAILED     becomeInitFailed: the turn, when init gave up   admitUpdate: a sender of a high-priority
 *                  or process threw TbActorUpdateException         TbActorUpdateMsg (one CAS winner), which then
 *                                                                  wakes the actor
 *  STOP_REQUESTED  becomeStopping: ActorStop.stop, after winning   never
 *                  the stop-reason CAS; ActorStop.failCreation
 *  DESTROYED       becomeDestroyed: the holder of the turn,        never
 *                  first thing of ActorStop.finishDestroy (one
 *                  atomic or: exactly one caller destroys)
 *
 *  created (turn held) --start--> turn: init --ok--> [INITIALIZED] --turns--> ...
 *       init fails, retries left --> delayed turn (a claim object keeps the turn) --> init again
 *       init gives up / update fails --> [INIT_FAILED]: turns only tell queued messages INIT_FAILED
 *            --TbActorUpdateMsg (high priority)--> init again
 *  any state --stop()--> [STOP_REQUESTED] --the holder's next turn--> [DESTROYED] (terminal; the turn is kept)
 * </pre>
 * Nothing is processed once {@code STOP_REQUESTED} is set: the turn looks at the status before each message. After
 * {@code DESTROYED} no turn takes from the queues any more, so every later drain may run on any thread.
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

    /** {@link #admitUpdate} results. */
    static final int UPDATE_REFUSED = 0;
    static final int UPDATE_ADMITTED = 1;
    static final int UPDATE_REVIVES = 2;

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

    // ---------------------------------------------------------------- the steps (see the rules above)

    /** The creating thread attached an actor instance (or a restart attached a fresh one). */
    final void becomeAttached() {
        setBits(ATTACHED | NEEDS_DESTROY);
    }

    /** The turn is about to run init: the instance is destroyed once more, whatever init does. */
    final void beginInit() {
        setBits(NEEDS_DESTROY);
    }

    /** The turn's init returned. */
    final void becomeInitialized() {
        setBits(INITIALIZED);
    }

    /** The turn's init gave up, or an update failed: messages are told {@code INIT_FAILED} until an update comes. */
    final void becomeInitFailed() {
        clearBits(INITIALIZED);
        setBits(INIT_FAILED);
    }

    /** The turn replaced the instance (a restart): the fresh one's init runs in a later turn. */
    final void becomeUninitialized() {
        clearBits(INITIALIZED);
    }

    /** A stop request: no message is processed after this. */
    final void becomeStopping() {
        setBits(STOP_REQUESTED);
    }

    /**
     * The holder of the turn destroys the actor; no turn takes from the queues after this.
     *
     * @return whether this call destroyed it (false when it was destroyed already)
     */
    final boolean becomeDestroyed() {
        return (setBits(DESTROYED) & DESTROYED) == 0;
    }

    /** @return whether the current instance was not destroyed since its last init; this call claims its destroy */
    final boolean claimInstanceDestroy() {
        return ((int) STATUS.getAndBitwiseAnd(this, ~NEEDS_DESTROY) & NEEDS_DESTROY) != 0;
    }

    /**
     * A high-priority {@code TbActorUpdateMsg} arrives (ThingsBoard's rule-node update): it is refused once a stop was
     * requested, and takes the actor out of {@code INIT_FAILED} if it is there (exactly one such sender does).
     *
     * @return {@link #UPDATE_REFUSED}, {@link #UPDATE_ADMITTED}, or {@link #UPDATE_REVIVES} when this call left
     *     {@code INIT_FAILED}
     */
    final int admitUpdate() {
        for (;;) {
            int s = status;
            if ((s & STOP_REQUESTED) != 0) {
                return UPDATE_REFUSED;
            }
            if ((s & INIT_FAILED) == 0) {
                return UPDATE_ADMITTED;
            }
            if (STATUS.compareAndSet(this, s, s & ~INIT_FAILED)) {
                return UPDATE_REVIVES;
            }
        }
    }

    private int setBits(int bits) {
        return (int) STATUS.getAndBitwiseOr(this, bits);
    }

    private void clearBits(int bits) {
        STATUS.getAndBitwiseAnd(this, ~bits);
    }

    // ---------------------------------------------------------------- reading it

    final boolean isStopRequested() {
        return (status & STOP_REQUESTED) != 0;
    }

    final boolean isDestroyed() {
        return (status & DESTROYED) != 0;
    }

    final boolean isInitFailed() {
        return (status & INIT_FAILED) != 0;
    }

    /** @return whether an actor instance was ever attached (the creator returned one) */
    final boolean isAttached() {
        return (status & ATTACHED) != 0;
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
