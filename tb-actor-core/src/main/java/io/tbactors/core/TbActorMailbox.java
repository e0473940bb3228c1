package io.tbactors.core;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
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
 * through {@link ActorRuntime}. A dispatcher may ask for the padded mailbox ({@link PaddedMailboxes}): this class with
 * the two ends of the normal-priority queue moved onto cache lines of their own, for a few busy actors.
 *
 * <h2>The turn and the status word</h2>
 * Who holds the actor's turn is told by the normal-priority queue's tail ({@link MailboxQueues}): while no turn is
 * held or submitted it is the {@link MailboxQueues#IDLE} sentinel; any other value means somebody holds the turn.
 * <pre>
 *  tail             becomes so by                              leaves by
 *  IDLE             the holder, when a turn found the queues    the first sender's tail exchange (an atomic
 *                   empty and nothing came since (tryIdle:      swap: exactly one party gets IDLE back), which
 *                   a compare-and-set from the last node)       then holds the turn and submits it
 *  null / a node    the constructor (the creating thread        tryIdle; never after the actor is destroyed
 *                   holds the turn until start), that exchange
 * </pre>
 * The turn is given up only when the queues are empty, so one exchange both queues a message and, when the actor was
 * idle, takes its turn: no second atomic operation per schedule. Everything else that needs a turn to look at the
 * actor (a stop request, a high-priority message, an update) queues a wake-up node ({@link MailboxQueues#WAKE}: no
 * message, counted nowhere, taken only by the turn or by a drain once the actor is destroyed), so it too either takes
 * the idle actor's turn or makes the holder look at the status again. The rest of the state is one {@code int} whose
 * every transition is a named step in {@link MailboxStatus}, with the table of who sets and clears each bit and the
 * actor's life as a diagram.
 *
 * <b>One turn at a time:</b> only the holder runs the actor, and the turn passes from holder to holder only through
 * the executor (a submitted turn), through a {@link DelayedTurn} that exactly one party claims, or through an idle
 * period that exactly one tail exchange ends. <b>No lost wake-up:</b> the holder's {@code tryIdle} succeeds only if
 * the tail is still the node its last take found empty; a sender that swapped the tail before it made that fail (the
 * holder takes another turn), one that swaps after it gets {@code IDLE} back and submits the turn. A turn that took a
 * wake-up looks at the status again before it goes on. <b>One fate per message:</b> before
 * {@code DESTROYED} only the holder takes from the head of the queues (and, when the depth is counted, counts with a
 * plain release store); the holder sets {@code DESTROYED} before its final drain, and a sender that finds
 * {@code DESTROYED} after queueing drains too (its message may have missed the holder's drain). While a turn may run
 * it is the only party that takes, with a plain read and write, except on a {@code DROP_OLDEST} mailbox, whose sender
 * takes the oldest message: there, as among the drains after the destroy, whoever takes swaps the message out of its
 * node, so exactly one of them gets it ({@link MailboxQueues}). A system stop that gives up never takes from a turn
 * still running: that turn tells what is queued when it returns ({@link SystemShutdown}).
 * A {@code DROP_OLDEST} sender swaps the oldest message for its own without touching the depth counters, so it
 * never lets the depth pass the bound.
 */
public sealed class TbActorMailbox extends MailboxContext permits PaddedMailboxes.PadBeforeHead {

    private static final long serialVersionUID = 1L;

    private static final Logger log = LoggerFactory.getLogger(TbActorMailbox.class);

    /** {@link #enqueue} results. */
    static final int ACCEPTED = 0;
    static final int REFUSED_STOPPED = 1;
    static final int REFUSED_FULL = 2;
    /** {@link BoundedOffer} accepted the message, and the actor was idle: the sender must submit its turn. */
    static final int ACCEPTED_WOKE = 3;

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
        becomeAttached();
    }

    /** The instance is gone and no fresh one comes (a restart that ends in a stop); its type stays for reports. */
    void dropActor() {
        extras().lastActorType = actorType();
        this.actor = null;
    }

    /** Hands the turn, held since construction, to the first turn, which runs init. */
    void start() {
        submit(true);
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
        boolean woke;
        if (d == null || highPriority || d.bound() == null) {
            woke = add(element, highPriority);
        } else {
            int result = BoundedOffer.offer(this, msg, element, delivery, d, tryOnly);
            if (result != ACCEPTED && result != ACCEPTED_WOKE) {
                return result;
            }
            woke = result == ACCEPTED_WOKE;
        }
        if (woke) {
            // the actor was idle (so not destroyed): this sender holds its turn now
            submitOwnedTurn();
        } else if (isDestroyed()) {
            // the holder's final drain may have passed before our message was queued: drain as well
            ActorStop.drainQueues(this, currentStopReason());
        }
        return ACCEPTED;
    }

    /** @return whether this message takes an actor out of {@code INIT_FAILED} (ThingsBoard's rule-node update) */
    private boolean reinitializes(TbActorMsg msg, boolean highPriority) {
        if (!highPriority || !(msg instanceof TbActorUpdateMsg)) {
            return false;
        }
        int admitted = admitUpdate();
        if (admitted == UPDATE_REVIVES) {
            log.info("[{}] Update received; initialising the actor again after its failed init", selfId);
        }
        return admitted != UPDATE_REFUSED;
    }

    private TbActorStopReason refusalReason() {
        return isStopRequested() ? currentStopReason() : TbActorStopReason.INIT_FAILED;
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

    /** Makes sure a turn looks at the actor's status and queues after this call (a stop request, for instance). */
    void wakeUp() {
        if (!isDestroyed() && wake()) {
            submitOwnedTurn();
        }
    }

    /** Submits a turn while holding it; if the executor refuses, the actor cannot run any more. */
    void submitOwnedTurn() {
        submit(false);
    }

    private void submit(boolean firstTurn) {
        try {
            if (firstTurn) {
                dispatcher.executeFirstTurn(this);
            } else {
                dispatcher.execute(this);
            }
        } catch (RejectedExecutionException e) {
            log.warn("[{}] Dispatcher '{}' refused the actor's turn; stopping the actor", selfId, dispatcher.getName());
            ActorStop.stop(this, TbActorStopReason.STOPPED, null);
            ActorStop.destroyAndRelease(this);
        }
    }

    /**
     * Only a shut-down executor drops a turn (see {@link MailboxTask}): submitting it again is refused, which stops and
     * destroys the actor here and tells its messages. Outside a shutdown the call is ignored.
     */
    @Override
    void turnNotRun() {
        if (dispatcher.getExecutor().isShutdown()) {
            submitOwnedTurn();
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
        if ((s & INIT_FAILED) != 0 && drainWhileInitFailed()) {
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
            if (element == WAKE) {
                // queued by a stop, a high-priority message or an update: the loop looks at the status again
                continue;
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
        if (processed == throughput || (processed > 0 && dispatcher.looksAgainAfterDraining())) {
            // a full turn yields without looking at the queues (reading the tail a sender is swapping costs a cache
            // miss): the next turn finds out, and releases at once in the rare case the queues were drained exactly; a
            // turn that drained them may look once more after the worker's other turns (Dispatcher#looksAgainAfterDraining);
            // the dispatcher may first let turns submitted from outside in ahead of it (Dispatcher#fullTurnEnded)
            dispatcher.fullTurnEnded();
            submitOwnedTurn();
        } else {
            release();
        }
    }

    /**
     * Ends a turn that found the queues empty: the actor becomes idle unless a sender queued meanwhile (a stop or a
     * high-priority message queues a wake-up too) or a stop was requested, in which case the holder keeps the turn and
     * submits the next one.
     */
    void release() {
        // a stop's wake-up may have been taken by a loop that does not look for stops (the drain of INIT_FAILED)
        if (!isStopRequested() && tryIdle()) {
            dispatcher.turnEndedIdle();
        } else {
            submitOwnedTurn();
        }
    }

    /**
     * The turn of an actor whose init gave up tells each queued message {@code INIT_FAILED}, until an update comes.
     *
     * @return whether the actor is still in {@code INIT_FAILED} once the queues are empty (else an update came)
     */
    boolean drainWhileInitFailed() {
        Object element;
        while (isInitFailed() && (element = pollTurn()) != null) {
            if (element != WAKE) {
                notProcessedElement(element, TbActorStopReason.INIT_FAILED);
            }
        }
        dispatcher.turnCompleted();
        return isInitFailed();
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

    /**
     * @return messages waiting in this mailbox: O(1) when the depth is counted (bounded mailboxes, or
     *     {@link TbActorSystemSettings#isCountMailboxDepth()}), otherwise the queues are walked
     */
    public int pendingMessages() {
        return isDestroyed() ? 0 : queued();
    }

    @Override
    public String toString() {
        return "TbActorMailbox{" + selfId + ", " + actorType() + ", dispatcher=" + dispatcher.getName() + '}';
    }
}
