package io.tbactors.core;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbTimer;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One actor's mailbox, reference and context in one object: a message goes {@link #tell} -> {@link #enqueue} (into a
 * queue, then a turn is scheduled if none is) -> the dispatcher runs the mailbox ({@link #exec} / {@link #run}) ->
 * {@link #processOne} hands it to the actor. What happens around that lives in helpers that take the mailbox as an
 * argument, one concern per file: {@link Supervision} (init, failures, restart), {@link ActorStop} (stop, destroy,
 * drain), {@link ActorChildren}, {@link ActorTimers} (timers, passivation, stop watchers), {@link MailboxDepth} and
 * {@link BoundedOffer} (bounds).
 * The mailbox knows its system only through {@link ActorRuntime}.
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
 * holder only through the executor (a submitted turn) or through a {@link MailboxExtras.DelayedTurn} that exactly
 * one party claims. <b>No lost wake-up:</b> a sender queues first and reads the status after; a turn clears
 * {@code SCHEDULED} first and looks at the queues after. Whichever comes second sees the other's write, so either
 * the sender schedules a turn or the releasing turn schedules one. <b>One fate per message:</b> before
 * {@code DESTROYED} only the holder polls (and, when the depth is counted, counts with a plain release store); the holder sets
 * {@code DESTROYED} before its final drain, and a sender that finds {@code DESTROYED} after queueing drains too
 * (its message may have missed the holder's drain); a queue hands each element to exactly one poller.
 * A {@code DROP_OLDEST} sender swaps the oldest message for its own without touching the depth counters, so it
 * never lets the depth pass the bound.
 */
public final class TbActorMailbox extends ForkJoinTask<Void> implements TbActorCtx, Runnable {

    private static final long serialVersionUID = 1L;

    private static final Logger log = LoggerFactory.getLogger(TbActorMailbox.class);

    static final int SCHEDULED = 1;
    static final int INITIALIZED = 2;
    static final int STOP_REQUESTED = 4;
    static final int DESTROYED = 8;
    static final int ATTACHED = 16;
    static final int INIT_FAILED = 32;

    /** {@link #enqueue} results. */
    static final int ACCEPTED = 0;
    static final int REFUSED_STOPPED = 1;
    static final int REFUSED_FULL = 2;

    private static final VarHandle STATUS;
    private static final VarHandle NORMAL;
    private static final VarHandle HIGH;
    private static final VarHandle EXTRAS;
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

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATUS = lookup.findVarHandle(TbActorMailbox.class, "status", int.class);
            NORMAL = lookup.findVarHandle(TbActorMailbox.class, "normalPriorityMsgs", ConcurrentLinkedQueue.class);
            HIGH = lookup.findVarHandle(TbActorMailbox.class, "highPriorityMsgs", ConcurrentLinkedQueue.class);
            EXTRAS = lookup.findVarHandle(TbActorMailbox.class, "extras", MailboxExtras.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ActorRuntime runtime;
    private final TbActorId selfId;
    private final TbActorMailbox parent;
    private final Dispatcher dispatcher;
    // both queues are created by the first message of their priority: an actor never told anything has none
    private volatile ConcurrentLinkedQueue<Object> normalPriorityMsgs;
    private volatile ConcurrentLinkedQueue<Object> highPriorityMsgs;
    // siblings in the parent's child list (see ActorChildren), guarded by the parent's extras
    TbActorMailbox prevSibling;
    TbActorMailbox nextSibling;
    boolean linkedToParent;
    private volatile int status = SCHEDULED;
    // null unless the mailbox is bounded or depth counting is on: an unbounded mailbox does nothing per message
    // beyond the queue's own insert
    private final MailboxDepth depth;
    // the stop reason and cause, the creator (kept by actors that may restart), timers, children and the like
    private volatile MailboxExtras extras;
    TbActor actor;

    TbActorMailbox(ActorRuntime runtime, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher, TbMailboxBound bound) {
        this.runtime = runtime;
        this.selfId = selfId;
        this.parent = parent;
        this.dispatcher = dispatcher;
        this.depth = bound != null || runtime.countMailboxDepth ? new MailboxDepth(bound) : null;
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
        int s = status;
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
        if (d == null) {
            (highPriority ? highQueue() : normalQueue()).add(element);
        } else if (highPriority || d.bound() == null) {
            (highPriority ? highQueue() : normalQueue()).add(element);
            d.added();
        } else {
            int result = BoundedOffer.offer(this, msg, element, delivery, d, tryOnly);
            if (result != ACCEPTED) {
                return result;
            }
        }
        s = status;
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
            int s = status;
            if ((s & STOP_REQUESTED) != 0) {
                return false;
            }
            if ((s & INIT_FAILED) == 0) {
                return true;
            }
            if (STATUS.compareAndSet(this, s, s & ~INIT_FAILED)) {
                log.info("[{}] Update received; initialising the actor again after its failed init", selfId);
                return true;
            }
        }
    }

    private TbActorStopReason refusalReason() {
        return (status & STOP_REQUESTED) != 0 ? currentStopReason() : TbActorStopReason.INIT_FAILED;
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

    ConcurrentLinkedQueue<Object> normalQueue() {
        ConcurrentLinkedQueue<Object> q = normalPriorityMsgs;
        return q != null ? q : createQueue(NORMAL);
    }

    private ConcurrentLinkedQueue<Object> highQueue() {
        ConcurrentLinkedQueue<Object> q = highPriorityMsgs;
        return q != null ? q : createQueue(HIGH);
    }

    private ConcurrentLinkedQueue<Object> createQueue(VarHandle field) {
        ConcurrentLinkedQueue<Object> created = new ConcurrentLinkedQueue<>();
        Object witness = field.compareAndExchange(this, null, created);
        return witness == null ? created : castQueue(witness);
    }

    @SuppressWarnings("unchecked")
    private static ConcurrentLinkedQueue<Object> castQueue(Object o) {
        return (ConcurrentLinkedQueue<Object>) o;
    }

    // ---------------------------------------------------------------- scheduling a turn on the dispatcher

    void trySchedule() {
        for (;;) {
            int s = status;
            if ((s & (SCHEDULED | DESTROYED)) != 0) {
                return;
            }
            if (STATUS.compareAndSet(this, s, s | SCHEDULED)) {
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

    /**
     * A fork-join dispatcher runs the mailbox itself as its task (no wrapper per turn); returning false keeps the task
     * never completed, so it can be submitted again for the next turn.
     */
    @Override
    protected boolean exec() {
        try {
            run();
        } catch (Throwable t) {
            // run() contains every callback's failure; this is an Error of the runtime itself
            log.error("[{}] Actor turn failed", selfId, t);
        }
        return false;
    }

    @Override
    public Void getRawResult() {
        return null;
    }

    @Override
    protected void setRawResult(Void value) {
        // a turn has no result
    }

    /** @return false: an actor's turns are not a future to cancel; stop the actor instead */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    /** Not supported: an actor's turns never complete as a task. */
    @Override
    public void complete(Void value) {
        throw new UnsupportedOperationException("An actor mailbox is not a future; stop the actor instead");
    }

    /** Not supported: an actor's turns never complete as a task. */
    @Override
    public void completeExceptionally(Throwable ex) {
        throw new UnsupportedOperationException("An actor mailbox is not a future; stop the actor instead");
    }

    // ---------------------------------------------------------------- the turn

    @Override
    public void run() {
        int s = status;
        if ((s & STOP_REQUESTED) != 0) {
            ActorStop.destroyAndRelease(this);
            return;
        }
        if ((s & INIT_FAILED) != 0 && Supervision.drainWhileInitFailed(this)) {
            release();
            return;
        }
        if ((status & INITIALIZED) == 0 && !Supervision.initActor(this)) {
            return;
        }
        int throughput = runtime.throughput;
        for (;;) {
            int processed = 0;
            while (processed < throughput) {
                s = status;
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
            MailboxExtras e = extras;
            if (e != null && e.idleTimeoutNanos > 0) {
                e.lastActivity = runtime.nanoTime();
            }
            if (processed < throughput) {
                release();
                return;
            }
            // a full turn yields without looking at the queues (ConcurrentLinkedQueue.isEmpty may CAS the head): the
            // next turn finds out, and releases at once in the rare case the queues were drained exactly. When nothing
            // else waits for this thread, the next turn runs here and now (see Dispatcher#mayRunNextTurnInPlace).
            if (!dispatcher.mayRunNextTurnInPlace()) {
                submitOwnedTurn();
                return;
            }
        }
    }

    /** Ends the turn: clears {@code SCHEDULED} first, then looks at the queues (no lost wake-up, no extra task). */
    void release() {
        clearBits(SCHEDULED);
        if ((status & STOP_REQUESTED) != 0 || hasMessages()) {
            trySchedule();
        } else {
            dispatcher.turnEndedIdle();
        }
    }

    private boolean hasMessages() {
        ConcurrentLinkedQueue<Object> normal = normalPriorityMsgs;
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return (normal != null && !normal.isEmpty()) || (high != null && !high.isEmpty());
    }

    /** Polls for the {@code SCHEDULED} holder before the actor is destroyed: the only writer of the consumer count. */
    Object pollTurn() {
        Object element = pollEither();
        MailboxDepth d = depth;
        if (element != null && d != null) {
            d.takenByOwner();
        }
        return element;
    }

    /** Polls from any thread once the actor is destroyed (or the system gave up on it), counting atomically. */
    Object poll() {
        Object element = pollEither();
        MailboxDepth d = depth;
        if (element != null && d != null) {
            d.taken();
        }
        return element;
    }

    private Object pollEither() {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        Object element = high == null ? null : high.poll();
        if (element != null) {
            return element;
        }
        ConcurrentLinkedQueue<Object> normal = normalPriorityMsgs;
        return normal == null ? null : normal.poll();
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

    // ---------------------------------------------------------------- status word and state for the helpers

    int status() {
        return status;
    }

    /** @return the status before the bits were set */
    int setBits(int bits) {
        return (int) STATUS.getAndBitwiseOr(this, bits);
    }

    void clearBits(int bits) {
        STATUS.getAndBitwiseAnd(this, ~bits);
    }

    /** @return whether this call set the stop reason (the first stop request wins) */
    boolean claimStopReason(TbActorStopReason reason) {
        return extras().claimStopReason(reason);
    }

    TbActorStopReason currentStopReason() {
        MailboxExtras e = extras;
        TbActorStopReason reason = e == null ? null : e.stopReason;
        return reason == null ? TbActorStopReason.STOPPED : reason;
    }

    /** @return the creator when the actor may restart, otherwise null */
    TbActorCreator creator() {
        MailboxExtras e = extras;
        return e == null ? null : e.creator;
    }

    /** @return the rarely used state, created on first use */
    MailboxExtras extras() {
        MailboxExtras e = extras;
        if (e == null) {
            MailboxExtras created = new MailboxExtras();
            Object witness = EXTRAS.compareAndExchange(this, null, created);
            e = witness == null ? created : (MailboxExtras) witness;
        }
        return e;
    }

    /** @return the rarely used state, or null when none was needed yet */
    MailboxExtras extrasIfAny() {
        return extras;
    }

    boolean isStopRequested() {
        return (status & STOP_REQUESTED) != 0;
    }

    boolean isDestroyed() {
        return (status & DESTROYED) != 0;
    }

    boolean isIdle() {
        return (status & SCHEDULED) == 0 && !hasMessages();
    }

    Dispatcher dispatcher() {
        return dispatcher;
    }

    TbActorMailbox parent() {
        return parent;
    }

    /** @return the actor's class name, computed once per class */
    String actorType() {
        TbActor a = actor;
        if (a != null) {
            return ACTOR_TYPES.get(a.getClass());
        }
        MailboxExtras e = extras;
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
        if ((status & DESTROYED) != 0) {
            return 0;
        }
        MailboxDepth d = depth;
        if (d != null) {
            return Math.max(0, d.pending());
        }
        ConcurrentLinkedQueue<Object> normal = normalPriorityMsgs;
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return (normal == null ? 0 : normal.size()) + (high == null ? 0 : high.size());
    }

    String stateName() {
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

    ActorStats stats() {
        return SystemViews.statsOf(this);
    }

    // ---------------------------------------------------------------- the TbActorCtx an actor is given

    @Override
    public TbActorId getSelf() {
        return selfId;
    }

    @Override
    public TbActorRef getParentRef() {
        return parent;
    }

    @Override
    public void tell(TbActorId target, TbActorMsg msg) {
        runtime.actors.tell(target, msg, false);
    }

    @Override
    public void stop(TbActorId target) {
        runtime.actors.stop(target);
    }

    @Override
    public TbActorRef getOrCreateChildActor(TbActorId actorId, Supplier<String> dispatcherSupplier,
                                            Supplier<TbActorCreator> creator, Supplier<Boolean> createCondition) {
        Objects.requireNonNull(actorId, "actorId must not be null");
        TbActorRef existing = runtime.actors.get(actorId);
        if (existing != null) {
            return existing;
        }
        if (!Boolean.TRUE.equals(createCondition.get())) {
            return null;
        }
        return runtime.actors.create(dispatcherSupplier.get(), creator.get(), selfId);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg) {
        ActorChildren.broadcast(runtime, selfId, id -> true, msg, false);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg, boolean highPriority) {
        ActorChildren.broadcast(runtime, selfId, id -> true, msg, highPriority);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg, Predicate<TbActorId> childFilter) {
        ActorChildren.broadcast(runtime, selfId, Objects.requireNonNull(childFilter, "childFilter must not be null"), msg, false);
    }

    @Override
    public void broadcastToChildrenByType(TbActorMsg msg, String entityType) {
        Objects.requireNonNull(entityType, "entityType must not be null");
        ActorChildren.broadcast(runtime, selfId, id -> entityType.equals(id.getEntityType()), msg, false);
    }

    @Override
    public List<TbActorId> filterChildren(Predicate<TbActorId> childFilter) {
        return ActorChildren.filter(runtime, selfId, childFilter);
    }

    @Override
    public TbTimer scheduleOnce(TbActorMsg msg, Duration delay) {
        return ActorTimers.schedule(this, msg, delay, null);
    }

    @Override
    public TbTimer schedulePeriodically(TbActorMsg msg, Duration initialDelay, Duration period) {
        Objects.requireNonNull(period, "period must not be null");
        return ActorTimers.schedule(this, msg, initialDelay, period);
    }

    @Override
    public void setIdleTimeout(Duration idleTimeout) {
        ActorTimers.setIdleTimeout(this, idleTimeout);
    }

    @Override
    public String toString() {
        return "TbActorMailbox{" + selfId + ", " + actorType() + ", dispatcher=" + dispatcher.getName() + '}';
    }
}
