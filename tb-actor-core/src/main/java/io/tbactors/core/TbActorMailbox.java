package io.tbactors.core;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One actor's mailbox, reference and context, in one object so that an actor costs one allocation; its parts are one
 * file each up the class chain: {@link MailboxTask} (the fork-join task that runs the turns), {@link MailboxQueues}
 * (the two queues, the normal one built into the mailbox, and the depth), {@link MailboxStatus} (the status word
 * below, and the rarely used state), {@link MailboxContext} (the {@code TbActorCtx} an actor is given). This file is
 * a message's path: {@link #tell} -> {@link #enqueue} (into a queue, then a turn is scheduled if none is) -> the
 * dispatcher runs the mailbox ({@link MailboxTask#exec} / {@link #run}) -> {@link #processOne} hands it to the actor.
 * What happens around that lives in helpers that take the mailbox as an argument, one concern per file: {@link
 * Supervision} (init, failures, restart), {@link ActorStop} (stop, destroy, drain), {@link ActorChildren}, {@link
 * ActorTimers} (timers, passivation, stop watchers), {@link BoundedOffer} (bounds). The mailbox knows its system only
 * through {@link ActorRuntime}.
 *
 * <h2>The status word</h2>
 * All coordination goes through one {@code int} changed only by atomic bit operations:
 * <pre>
 *  bit             set by                                   cleared by
 *  SCHEDULED       the constructor (creating thread holds    the holder, when its turn ends (release) or the
 *                  it), trySchedule (a CAS from clear:       actor is destroyed (destroyAndRelease); never by
 *                  exactly one winner)                       anybody else
 *  INITIALIZED     the turn, after init returned             the turn, at restart or init failure
 *  INIT_FAILED     the turn, when init gave up or process    a sender of a high-priority TbActorUpdateMsg
 *                  threw TbActorUpdateException              (one CAS winner), which then schedules a turn
 *  STOP_REQUESTED  ActorStop.stop, after winning the stop-     never
 *                  reason CAS
 *  DESTROYED       the SCHEDULED holder, first thing of      never
 *                  ActorStop.finishDestroy (getAndBitwiseOr)
 *  ATTACHED        the creating thread, once the creator     never
 *                  returned an actor
 *
 *  created(SCHEDULED) --start--> turn: init --ok--> [INITIALIZED] --turns--> ...
 *       init fails, retries left --> delayed turn (a claim object keeps SCHEDULED) --> init again
 *       init gives up / update fails --> [INIT_FAILED]: turns only tell queued messages INIT_FAILED
 *            --TbActorUpdateMsg (high priority)--> init again
 *  any state --stop()--> [STOP_REQUESTED] --the holder's next turn--> [DESTROYED] (terminal)
 * </pre>
 * <b>One turn at a time:</b> only the holder of {@code SCHEDULED} runs the actor, and the bit passes from holder to
 * holder only through the executor (a submitted turn) or through a {@link DelayedTurn} that exactly
 * one party claims. <b>No lost wake-up:</b> a sender queues first and reads the status after; a turn clears
 * {@code SCHEDULED} first and looks at the queues after. Whichever comes second sees the other's write, so either
 * the sender schedules a turn or the releasing turn schedules one. <b>One fate per message:</b> before
 * {@code DESTROYED} only the holder takes from the head of the queues (and, when the depth is counted, counts with a
 * plain release store); the holder sets {@code DESTROYED} before its final drain, and a sender that finds
 * {@code DESTROYED} after queueing drains too (its message may have missed the holder's drain); whoever takes a
 * message (the turn, a drain, a {@code DROP_OLDEST} sender) swaps it out of its node, so exactly one of them gets it
 * ({@link MailboxQueues}).
 * A {@code DROP_OLDEST} sender swaps the oldest message for its own without touching the depth counters, so it
 * never lets the depth pass the bound.
 */
public final class TbActorMailbox extends MailboxContext {

    private static final long serialVersionUID = 1L;

    private static final Logger log = LoggerFactory.getLogger(TbActorMailbox.class);

    /** {@link #enqueue} results. */
    static final int ACCEPTED = 0;
    static final int REFUSED_STOPPED = 1;
    static final int REFUSED_FULL = 2;

    private static final ClassValue<String> ACTOR_TYPES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            String simple = type.getSimpleName();
            return simple.isEmpty() ? type.getName().substring(type.getName().lastIndexOf('.') + 1) : simple;
        }
    };

    /** Whether an actor class overrides {@code onProcessFailure}: only such actors can ask for a restart. */
    private static final ClassValue<Boolean> MAY_RESTART = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("onProcessFailure", TbActorMsg.class, Throwable.class).getDeclaringClass() != TbActor.class;
            } catch (NoSuchMethodException e) {
                return Boolean.TRUE;
            }
        }
    };

    private final Dispatcher dispatcher;
    // siblings in the parent's child list (see ActorChildren), guarded by the parent's extras
    TbActorMailbox prevSibling;
    TbActorMailbox nextSibling;
    TbActor actor;

    TbActorMailbox(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
        super(runtime, selfId, parent, bound);
        this.dispatcher = dispatcher;
    }

    // ---------------------------------------------------------------- creation (called by the creating thread)

    /** @param creator kept only when the actor's class overrides {@code onProcessFailure}, so it may restart */
    void attachActor(TbActor newActor, TbActorCreator creator) {
        if (MAY_RESTART.get(newActor.getClass())) {
            extras().creator = creator;
        }
        this.actor = newActor;
        setBits(ATTACHED);
    }

    /** The instance is gone and no fresh one comes (a restart that ends in a stop); its type stays for reports. */
    void dropActor() {
        extras().lastActorType = actorType();
        this.actor = null;
    }

    /** Hands the {@code SCHEDULED} bit, held since construction, to the first turn, which runs init. */
    void start() {
        submitOwnedTurn();
    }

    // ---------------------------------------------------------------- telling

    @Override
    public TbActorId getActorId() {
        return selfId;
    }

    @Override
    public void tell(TbActorMsg actorMsg) {
        enqueue(actorMsg, false, false, null);
    }

    @Override
    public void tellWithHighPriority(TbActorMsg actorMsg) {
        enqueue(actorMsg, true, false, null);
    }

    @Override
    public boolean tryTell(TbActorMsg actorMsg) {
        return enqueue(actorMsg, false, true, null) == ACCEPTED;
    }

    void enqueue(TbActorMsg msg, boolean highPriority) {
        enqueue(msg, highPriority, false, null);
    }

    /**
     * Queues a message. With {@code tryOnly} a refused message is handed back (no callback) instead of being told why.
     *
     * @param delivery told when the message is never processed, asked before it is; null for none
     * @return {@link #ACCEPTED}, {@link #REFUSED_STOPPED} or {@link #REFUSED_FULL}
     */
    int enqueue(TbActorMsg msg, boolean highPriority, boolean tryOnly, Delivery delivery) {
        Objects.requireNonNull(msg, "actor message must not be null");
        TbMessageFateObserver fates = runtime.fates;
        if (fates != null) {
            // before the message can be processed, so its fate always comes after this
            fates.onTold(selfId, msg);
        }
        int s = status();
        if ((s & (STOP_REQUESTED | INIT_FAILED)) != 0 && !reinitializes(msg, highPriority)) {
            if (!tryOnly) {
                refuse(msg, delivery, refusalReason());
            } else {
                handedBack(msg);
            }
            return REFUSED_STOPPED;
        }
        Object element = envelope(msg, delivery);
        MailboxDepth d = depth;
        if (d == null || highPriority || d.bound() == null) {
            add(element, highPriority);
        } else {
            int result = BoundedOffer.offer(this, msg, element, delivery, d, tryOnly);
            if (result != ACCEPTED) {
                return result;
            }
        }
        s = status();
        if ((s & DESTROYED) != 0) {
            // the holder's final drain may have passed before our message was queued: drain as well
            ActorStop.drainQueues(this, currentStopReason());
        } else if ((s & SCHEDULED) == 0) {
            trySchedule();
        }
        return ACCEPTED;
    }

    /** @return whether this message takes an actor out of {@code INIT_FAILED} (ThingsBoard's rule-node update) */
    private boolean reinitializes(TbActorMsg msg, boolean highPriority) {
        if (!highPriority || !(msg instanceof TbActorUpdateMsg)) {
            return false;
        }
        for (;;) {
            int s = status();
            if ((s & STOP_REQUESTED) != 0) {
                return false;
            }
            if ((s & INIT_FAILED) == 0) {
                return true;
            }
            if (casStatus(s, s & ~INIT_FAILED)) {
                log.info("[{}] Update received; initialising the actor again after its failed init", selfId);
                return true;
            }
        }
    }

    private TbActorStopReason refusalReason() {
        return (status() & STOP_REQUESTED) != 0 ? currentStopReason() : TbActorStopReason.INIT_FAILED;
    }

    /** A message told to this mailbox will never be processed: its sender is told why, then the observer sees it. */
    void refuse(TbActorMsg msg, Delivery delivery, TbActorStopReason reason) {
        runtime.deadLetters.notProcessed(selfId, msg, reason);
        if (delivery != null) {
            delivery.notDelivered(reason);
        }
        TbMessageFateObserver fates = runtime.fates;
        if (fates != null) {
            fates.onNotProcessed(selfId, msg, reason);
        }
    }

    void notProcessedElement(Object element, TbActorStopReason reason) {
        if (element instanceof Envelope envelope) {
            refuse(envelope.msg(), envelope.delivery(), reason);
        } else {
            refuse((TbActorMsg) element, null, reason);
        }
    }

    /** {@code tryTell} refused the message: the sender keeps it. */
    void handedBack(TbActorMsg msg) {
        TbMessageFateObserver fates = runtime.fates;
        if (fates != null) {
            fates.onHandedBack(selfId, msg);
        }
    }

    /** @return the message itself, or an envelope when a wait time, a context or a delivery travels with it */
    private Object envelope(TbActorMsg msg, Delivery delivery) {
        Object context = runtime.captureContext();
        boolean timed = runtime.recordWaitTime;
        if (!timed && context == null && delivery == null) {
            return msg;
        }
        return new Envelope(msg, timed ? System.nanoTime() : Envelope.NOT_TIMED, context, delivery);
    }

    // ---------------------------------------------------------------- scheduling a turn on the dispatcher

    void trySchedule() {
        for (;;) {
            int s = status();
            if ((s & (SCHEDULED | DESTROYED)) != 0) {
                return;
            }
            if (casStatus(s, s | SCHEDULED)) {
                submitOwnedTurn();
                return;
            }
        }
    }

    /** Submits a turn while holding {@code SCHEDULED}; if the executor refuses, the actor cannot run any more. */
    void submitOwnedTurn() {
        try {
            dispatcher.execute(this);
        } catch (RejectedExecutionException e) {
            log.warn("[{}] Dispatcher '{}' refused the actor's turn; stopping the actor", selfId, dispatcher.getName());
            ActorStop.stop(this, TbActorStopReason.STOPPED, null);
            ActorStop.destroyAndRelease(this);
        }
    }

    // ---------------------------------------------------------------- the turn

    @Override
    public void run() {
        int s = status();
        if ((s & STOP_REQUESTED) != 0) {
            ActorStop.destroyAndRelease(this);
            return;
        }
        if ((s & INIT_FAILED) != 0 && Supervision.drainWhileInitFailed(this)) {
            release();
            return;
        }
        if ((status() & INITIALIZED) == 0 && !Supervision.initActor(this)) {
            return;
        }
        int throughput = runtime.throughput;
        int processed = 0;
        while (processed < throughput) {
            s = status();
            if ((s & STOP_REQUESTED) != 0) {
                dispatcher.turnCompleted();
                ActorStop.destroyAndRelease(this);
                return;
            }
            if ((s & (INIT_FAILED | INITIALIZED)) != INITIALIZED) {
                // an update failed (or was received since): the next turn drains or initialises
                dispatcher.turnCompleted();
                submitOwnedTurn();
                return;
            }
            Object element = pollTurn();
            if (element == null) {
                break;
            }
            processed++;
            long restartDelay = processOne(element);
            if (restartDelay >= 0) {
                // the actor was replaced by a fresh instance: its init runs in a later turn, after the backoff
                dispatcher.turnCompleted();
                Supervision.scheduleOwnedTurn(this, restartDelay);
                return;
            }
        }
        dispatcher.turnCompleted();
        MailboxExtras e = extrasIfAny();
        if (e != null && e.idleTimeoutNanos > 0) {
            e.lastActivity = runtime.nanoTime();
        }
        if (processed == throughput) {
            // a full turn yields without looking at the queues (reading the tail a sender is swapping costs a cache
            // miss): the next turn finds out, and releases at once in the rare case the queues were drained exactly; the
            // dispatcher may first let turns submitted from outside in ahead of it (Dispatcher#fullTurnEnded)
            dispatcher.fullTurnEnded();
            submitOwnedTurn();
        } else {
            release();
        }
    }

    /** Ends the turn: clears {@code SCHEDULED} first, then looks at the queues (no lost wake-up, no extra task). */
    void release() {
        clearBits(SCHEDULED);
        if ((status() & STOP_REQUESTED) != 0 || hasMessages()) {
            trySchedule();
        } else {
            dispatcher.turnEndedIdle();
        }
    }

    /** @return the delay before the restarted actor's init when processing made it restart, otherwise -1 */
    private long processOne(Object element) {
        TbActorMsg msg;
        long waitNanos = -1;
        Object context = null;
        if (element instanceof Envelope envelope) {
            msg = envelope.msg();
            Delivery delivery = envelope.delivery();
            if (delivery != null && !delivery.stillWanted()) {
                // a tick of a periodic timer cancelled after it was queued
                TbMessageFateObserver fates = runtime.fates;
                if (fates != null) {
                    fates.onWithdrawn(selfId, msg);
                }
                return -1;
            }
            if (envelope.enqueuedAt() != Envelope.NOT_TIMED) {
                waitNanos = System.nanoTime() - envelope.enqueuedAt();
            }
            context = envelope.context();
        } else {
            msg = (TbActorMsg) element;
        }
        TbMessageFateObserver fates = runtime.fates;
        if (fates != null) {
            fates.onProcessed(selfId, msg);
        }
        TbActorSystemListener listener = runtime.listener;
        TbMessageContextPropagator.Scope scope = context == null ? null : runtime.restoreContext(context);
        long slowNanos = runtime.slowProcessingNanos;
        // no clock read per message unless a listener or the slow-processing check asks for it
        long start = listener == null && slowNanos < 0 ? 0 : System.nanoTime();
        boolean failed = false;
        long restartDelay = -1;
        try {
            if (!actor.process(msg) && log.isDebugEnabled()) {
                log.debug("[{}] Message not handled by {}: {}", selfId, actorType(), msg);
            }
        } catch (Throwable t) {
            failed = true;
            restartDelay = Supervision.onProcessFailure(this, msg, t);
        } finally {
            if (scope != null) {
                runtime.closeContext(scope);
            }
        }
        if (start != 0) {
            long took = System.nanoTime() - start;
            if (listener != null) {
                listener.onMessageProcessed(dispatcher.getName(), actorType(), waitNanos, took, failed);
            }
            if (slowNanos >= 0 && took > slowNanos) {
                runtime.slowProcessing(this, msg, took);
            }
        }
        return restartDelay;
    }

    // ---------------------------------------------------------------- state for the helpers

    Dispatcher dispatcher() {
        return dispatcher;
    }

    /** @return the actor's class name, computed once per class */
    String actorType() {
        TbActor a = actor;
        if (a != null) {
            return ACTOR_TYPES.get(a.getClass());
        }
        MailboxExtras e = extrasIfAny();
        return e != null && e.lastActorType != null ? e.lastActorType : "unknown";
    }

    /** @return how many timers of this actor are live (for tests and reports) */
    int liveTimers() {
        return ActorTimers.liveTimers(this);
    }

    /**
     * @return messages waiting in this mailbox: O(1) when the depth is counted (bounded mailboxes, or
     *     {@link TbActorSystemSettings#isCountMailboxDepth()}), otherwise the queues are walked
     */
    public int pendingMessages() {
        return (status() & DESTROYED) != 0 ? 0 : queued();
    }

    ActorStats stats() {
        return SystemViews.statsOf(this);
    }

    @Override
    public String toString() {
        return "TbActorMailbox{" + selfId + ", " + actorType() + ", dispatcher=" + dispatcher.getName() + '}';
    }
}
