package io.tbactors.core;

import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateException;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbMailboxOverflowPolicy;
import io.tbactors.api.TbTimer;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One actor's mailbox, reference and context in one object.
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
 *  STOP_REQUESTED  stop(), after winning the stop-reason CAS never
 *  DESTROYED       the SCHEDULED holder, first thing of      never
 *                  finishDestroy (getAndBitwiseOr: once)
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
 * {@code DESTROYED} only the holder polls (and counts depth with a plain release store); the holder sets
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

    private static final long NOT_TIMED = Long.MIN_VALUE;

    private static final VarHandle STATUS;
    private static final VarHandle HIGH;
    private static final VarHandle STOP_REASON;
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
            HIGH = lookup.findVarHandle(TbActorMailbox.class, "highPriorityMsgs", ConcurrentLinkedQueue.class);
            STOP_REASON = lookup.findVarHandle(TbActorMailbox.class, "stopReason", TbActorStopReason.class);
            EXTRAS = lookup.findVarHandle(TbActorMailbox.class, "extras", MailboxExtras.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final DefaultTbActorSystem system;
    private final TbActorId selfId;
    private final TbActorMailbox parent;
    private final Dispatcher dispatcher;
    private final ConcurrentLinkedQueue<Object> normalPriorityMsgs = new ConcurrentLinkedQueue<>();
    private volatile ConcurrentLinkedQueue<Object> highPriorityMsgs;
    // siblings form an intrusive doubly linked list through the children's mailboxes, guarded by the parent's
    // extras: two references per child instead of a hash-set entry, and nothing at all for childless actors
    private TbActorMailbox prevSibling;
    private TbActorMailbox nextSibling;
    private boolean linkedToParent;
    private volatile int status = SCHEDULED;
    // null unless the mailbox is bounded or depth counting is on: an unbounded mailbox does nothing per message
    // beyond the queue's own insert
    private final MailboxDepth depth;
    private volatile TbActorStopReason stopReason;
    private volatile MailboxExtras extras;
    private TbActorCreator creator;
    private TbActor actor;
    private String actorType = "unknown";
    private int initAttempts;

    TbActorMailbox(DefaultTbActorSystem system, TbActorId selfId, TbActorMailbox parent, Dispatcher dispatcher,
                   TbActorCreator creator, TbMailboxBound bound) {
        this.system = system;
        this.selfId = selfId;
        this.parent = parent;
        this.dispatcher = dispatcher;
        this.creator = creator;
        this.depth = bound != null || system.getSettings().isCountMailboxDepth() ? new MailboxDepth(bound) : null;
    }

    // ---------------------------------------------------------------- creation (called by the creating thread)

    void attachActor(TbActor newActor) {
        setBits(ATTACHED);
        this.actor = newActor;
        if (!MAY_RESTART.get(newActor.getClass())) {
            // the default failure strategy never restarts: keeping the creator would only cost memory
            this.creator = null;
        }
        this.actorType = ACTOR_TYPES.get(newActor.getClass());
    }

    /** Hands the {@code SCHEDULED} bit, held since construction, to the first turn, which runs init. */
    void start() {
        submitOwnedTurn();
    }

    /** The creator threw: the actor never existed; tell what was queued to the placeholder. */
    void failCreation(Throwable cause) {
        STOP_REASON.compareAndSet(this, null, TbActorStopReason.INIT_FAILED);
        extras().stopCause = cause;
        setBits(STOP_REQUESTED);
        finishDestroy(false);
        clearBits(SCHEDULED);
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
        int s = status;
        if ((s & (STOP_REQUESTED | INIT_FAILED)) != 0 && !reinitializes(msg, highPriority)) {
            if (!tryOnly) {
                refuse(msg, delivery, refusalReason());
            }
            return REFUSED_STOPPED;
        }
        Object element = envelope(msg, delivery);
        MailboxDepth d = depth;
        if (d == null) {
            (highPriority ? highQueue() : normalPriorityMsgs).add(element);
        } else if (highPriority || d.bound() == null) {
            (highPriority ? highQueue() : normalPriorityMsgs).add(element);
            d.added();
        } else {
            int result = offerBounded(msg, element, delivery, d, tryOnly);
            if (result != ACCEPTED) {
                return result;
            }
        }
        s = status;
        if ((s & DESTROYED) != 0) {
            // the holder's final drain may have passed before our message was queued: drain as well
            drainQueues(currentStopReason());
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

    /**
     * Reserves a slot under the capacity before queueing, so the bound holds under concurrent senders. A
     * {@code DROP_OLDEST} sender takes over the slot of the message it drops.
     */
    private int offerBounded(TbActorMsg msg, Object element, Delivery delivery, MailboxDepth d, boolean tryOnly) {
        TbMailboxBound limit = d.bound();
        int capacity = limit.capacity();
        for (;;) {
            if (d.tryReserve(capacity)) {
                normalPriorityMsgs.add(element);
                return ACCEPTED;
            }
            if (tryOnly) {
                system.tryTellRefused(this);
                return REFUSED_FULL;
            }
            if (limit.overflowPolicy() == TbMailboxOverflowPolicy.DROP_OLDEST) {
                Object oldest = normalPriorityMsgs.poll();
                if (oldest != null) {
                    // the dropped message's slot becomes ours: the depth counters stay as they are
                    normalPriorityMsgs.add(element);
                    notProcessedElement(oldest, TbActorStopReason.DROPPED_OLDEST);
                    return ACCEPTED;
                }
                if (d.hasRoom(capacity)) {
                    // the turn took a message meanwhile: a slot is free again
                    continue;
                }
                // full with nothing of normal priority to drop: high-priority messages fill it, or senders that
                // reserved their slots have not queued yet; no waiting on them, the newest is refused
            }
            refuse(msg, delivery, TbActorStopReason.MAILBOX_FULL);
            return REFUSED_FULL;
        }
    }

    private void refuse(TbActorMsg msg, Delivery delivery, TbActorStopReason reason) {
        system.notProcessed(selfId, msg, reason);
        if (delivery != null) {
            delivery.notDelivered(reason);
        }
    }

    private void notProcessedElement(Object element, TbActorStopReason reason) {
        if (element instanceof Envelope envelope) {
            refuse(envelope.msg(), envelope.delivery(), reason);
        } else {
            system.notProcessed(selfId, (TbActorMsg) element, reason);
        }
    }

    /** @return the message itself, or an envelope when a wait time, a context or a delivery travels with it */
    private Object envelope(TbActorMsg msg, Delivery delivery) {
        Object context = system.captureContext();
        boolean timed = system.isRecordWaitTime();
        if (!timed && context == null && delivery == null) {
            return msg;
        }
        return new Envelope(msg, timed ? System.nanoTime() : NOT_TIMED, context, delivery);
    }

    private ConcurrentLinkedQueue<Object> highQueue() {
        ConcurrentLinkedQueue<Object> q = highPriorityMsgs;
        if (q == null) {
            ConcurrentLinkedQueue<Object> created = new ConcurrentLinkedQueue<>();
            Object witness = HIGH.compareAndExchange(this, null, created);
            q = witness == null ? created : castQueue(witness);
        }
        return q;
    }

    @SuppressWarnings("unchecked")
    private static ConcurrentLinkedQueue<Object> castQueue(Object o) {
        return (ConcurrentLinkedQueue<Object>) o;
    }

    private void trySchedule() {
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
            stop(TbActorStopReason.STOPPED, null);
            destroyAndRelease();
        }
    }

    // ---------------------------------------------------------------- the turn

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

    @Override
    public void run() {
        int s = status;
        if ((s & STOP_REQUESTED) != 0) {
            destroyAndRelease();
            return;
        }
        if ((s & INIT_FAILED) != 0 && drainWhileInitFailed()) {
            release();
            return;
        }
        if ((status & INITIALIZED) == 0 && !initActor()) {
            return;
        }
        int throughput = system.getActorThroughput();
        int processed = 0;
        while (processed < throughput) {
            s = status;
            if ((s & STOP_REQUESTED) != 0) {
                dispatcher.turnCompleted();
                destroyAndRelease();
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
                scheduleOwnedTurn(restartDelay);
                return;
            }
        }
        dispatcher.turnCompleted();
        MailboxExtras e = extras;
        if (e != null && e.idleTimeoutNanos > 0) {
            e.lastActivity = System.nanoTime();
        }
        if (processed == throughput && hasMessages()) {
            submitOwnedTurn();
        } else {
            release();
        }
    }

    private void release() {
        clearBits(SCHEDULED);
        if ((status & STOP_REQUESTED) != 0 || hasMessages()) {
            trySchedule();
        }
    }

    private boolean hasMessages() {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return !normalPriorityMsgs.isEmpty() || (high != null && !high.isEmpty());
    }

    /** Polls for the {@code SCHEDULED} holder before the actor is destroyed: the only writer of {@code dequeued}. */
    private Object pollTurn() {
        Object element = pollEither();
        MailboxDepth d = depth;
        if (element != null && d != null) {
            d.takenByOwner();
        }
        return element;
    }

    /** Polls from any thread once the actor is destroyed (or the system gave up on it), counting atomically. */
    private Object poll() {
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
        return element != null ? element : normalPriorityMsgs.poll();
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
                return -1;
            }
            if (envelope.enqueuedAt() != NOT_TIMED) {
                waitNanos = System.nanoTime() - envelope.enqueuedAt();
            }
            context = envelope.context();
        } else {
            msg = (TbActorMsg) element;
        }
        TbActorSystemListener listener = system.listener();
        TbMessageContextPropagator.Scope scope = context == null ? null : system.restoreContext(context);
        long slowNanos = system.slowProcessingNanos();
        long start = listener == null && slowNanos < 0 ? 0 : System.nanoTime();
        boolean failed = false;
        long restartDelay = -1;
        try {
            if (!actor.process(msg) && log.isDebugEnabled()) {
                log.debug("[{}] Message not handled by {}: {}", selfId, actorType, msg);
            }
        } catch (Throwable t) {
            failed = true;
            restartDelay = onProcessFailure(msg, t);
        } finally {
            if (scope != null) {
                system.closeContext(scope);
            }
        }
        if (start != 0) {
            long took = System.nanoTime() - start;
            if (listener != null) {
                listener.onMessageProcessed(dispatcher.getName(), actorType, waitNanos, took, failed);
            }
            if (slowNanos >= 0 && took > slowNanos) {
                system.slowProcessing(this, msg, took);
            }
        }
        return restartDelay;
    }

    /** @return the restart backoff when the actor was restarted, otherwise -1 */
    private long onProcessFailure(TbActorMsg msg, Throwable t) {
        if (t instanceof TbActorUpdateException) {
            log.warn("[{}] Failed to apply an update; the actor waits for the next update to init again", selfId, t);
            initFailed(t.getCause() != null ? t.getCause() : t);
            return -1;
        }
        ProcessFailureStrategy strategy;
        try {
            strategy = actor.onProcessFailure(msg, t);
        } catch (Throwable decisionFailure) {
            system.callbackFailed("onProcessFailure", selfId, decisionFailure);
            strategy = ProcessFailureStrategy.stop();
        }
        if (strategy != null && strategy.isStop()) {
            log.warn("[{}] Failed to process message {}; stopping the actor", selfId, msg.getClass().getSimpleName(), t);
            stop(TbActorStopReason.STOPPED, t);
        } else if (strategy != null && strategy.isRestart()) {
            return restart(msg, t);
        } else if (log.isDebugEnabled()) {
            log.debug("[{}] Failed to process message {}; resuming", selfId, msg.getClass().getSimpleName(), t);
        }
        return -1;
    }

    /**
     * Replaces the actor by a fresh instance from its creator, keeping the mailbox, unless it restarted too often
     * within the window; then it is stopped. The new instance is initialised in a later turn, after a backoff that
     * doubles with each restart in the window. The old instance's timers are cancelled with it.
     *
     * @return the backoff before the new instance's init, or -1 when the actor was stopped instead
     */
    private long restart(TbActorMsg msg, Throwable cause) {
        MailboxExtras e = extras();
        long now = System.nanoTime();
        if (e.restartsInWindow == 0 || now - e.restartWindowStart > system.getSettings().getRestartWindow().toNanos()) {
            e.restartWindowStart = now;
            e.restartsInWindow = 0;
        }
        int maxRestarts = system.getSettings().getMaxRestarts();
        if (e.restartsInWindow >= maxRestarts) {
            log.warn("[{}] Failed to process {} after {} restart(s) within {}; stopping the actor", selfId,
                    msg.getClass().getSimpleName(), maxRestarts, system.getSettings().getRestartWindow(), cause);
            stop(TbActorStopReason.STOPPED, cause);
            return -1;
        }
        if ((status & STOP_REQUESTED) != 0) {
            // stopping anyway: the turn destroys this instance with the stop's reason, no fresh one is made
            return -1;
        }
        e.restartsInWindow++;
        log.warn("[{}] Failed to process {}; restarting the actor ({} of at most {} within {})", selfId,
                msg.getClass().getSimpleName(), e.restartsInWindow, maxRestarts, system.getSettings().getRestartWindow(), cause);
        destroyActor(TbActorStopReason.RESTARTED, cause);
        cancelTimers(e);
        clearBits(INITIALIZED);
        TbActor fresh;
        Throwable creatorFailure = null;
        // a stop sets STOP_REQUESTED under this lock: it either lands before the check or waits for the creator
        synchronized (e) {
            if ((status & STOP_REQUESTED) != 0) {
                // stopped during the destroy: no new instance (its id may already belong to another actor), and the
                // old one was destroyed already, with RESTARTED as its last reason
                actor = null;
                return -1;
            }
            try {
                fresh = Objects.requireNonNull(creator.createActor(), "creator.createActor() returned null");
            } catch (Throwable t) {
                fresh = null;
                creatorFailure = t;
            }
        }
        if (fresh == null) {
            log.warn("[{}] Creator failed during restart; stopping the actor", selfId, creatorFailure);
            actor = null;
            stop(TbActorStopReason.INIT_FAILED, creatorFailure);
            return -1;
        }
        attachActor(fresh);
        initAttempts = 0;
        long backoff = system.getSettings().getRestartBackoff().toNanos();
        system.actorRestarted(this);
        return backoff << Math.min(20, e.restartsInWindow - 1);
    }

    /** Runs the next turn after a delay, keeping {@code SCHEDULED} meanwhile; a stop claims the wait and runs it now. */
    private void scheduleOwnedTurn(long delayNanos) {
        if (delayNanos <= 0) {
            submitOwnedTurn();
            return;
        }
        MailboxExtras.DelayedTurn turn = new MailboxExtras.DelayedTurn(this);
        extras().delayedTurn = turn;
        try {
            turn.bind(system.getScheduler().schedule(turn, delayNanos, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException e) {
            if (turn.claim()) {
                submitOwnedTurn();
            }
            return;
        }
        if ((status & STOP_REQUESTED) != 0) {
            expediteDelayedTurn();
        }
    }

    /** A stop does not wait out an init retry or restart backoff: whoever claims the delayed turn submits it. */
    private void expediteDelayedTurn() {
        MailboxExtras e = extras;
        MailboxExtras.DelayedTurn turn = e == null ? null : e.delayedTurn;
        if (turn != null && turn.claimEarly()) {
            submitOwnedTurn();
        }
    }

    /** @return true when the actor is ready and the turn goes on; false when the turn was handed elsewhere */
    private boolean initActor() {
        initAttempts++;
        try {
            actor.init(this);
            setBits(INITIALIZED);
            return true;
        } catch (Throwable t) {
            onInitFailure(t);
            return false;
        }
    }

    private void onInitFailure(Throwable t) {
        int attempt = initAttempts;
        TbActorSystemListener listener = system.listener();
        if (listener != null) {
            listener.onInitFailure(selfId, dispatcher.getName(), actorType, attempt, t);
        }
        int maxAttempts = system.getMaxActorInitAttempts();
        InitFailureStrategy strategy;
        if (maxAttempts > 0 && attempt >= maxAttempts) {
            strategy = InitFailureStrategy.stop();
        } else {
            try {
                strategy = Objects.requireNonNullElse(actor.onInitFailure(attempt, t), InitFailureStrategy.stop());
            } catch (Throwable decisionFailure) {
                system.callbackFailed("onInitFailure", selfId, decisionFailure);
                strategy = InitFailureStrategy.stop();
            }
        }
        if (strategy.isStop()) {
            log.warn("[{}] Failed to init actor, attempt {} (at most {}); it stays registered and refuses messages with "
                    + "INIT_FAILED until it is stopped or an update initialises it again", selfId, attempt,
                    maxAttempts > 0 ? String.valueOf(maxAttempts) : "unlimited", t);
            initFailed(t);
            if (drainWhileInitFailed()) {
                release();
            } else {
                submitOwnedTurn();
            }
        } else if (strategy.getRetryDelay() == 0) {
            log.debug("[{}] Failed to init actor, attempt {}; retrying now", selfId, attempt, t);
            submitOwnedTurn();
        } else {
            log.debug("[{}] Failed to init actor, attempt {}; retrying in {} ms", selfId, attempt, strategy.getRetryDelay(), t);
            scheduleOwnedTurn(TimeUnit.MILLISECONDS.toNanos(strategy.getRetryDelay()));
        }
    }

    /**
     * Init gave up, or an update failed: as in ThingsBoard the actor is destroyed with {@code INIT_FAILED} but stays
     * registered; messages are told {@code INIT_FAILED} until a {@link TbActorUpdateMsg} initialises it again.
     */
    private void initFailed(Throwable cause) {
        MailboxExtras e = extras();
        e.stopCause = cause;
        initAttempts = 0;
        clearBits(INITIALIZED);
        setBits(INIT_FAILED);
        destroyActor(TbActorStopReason.INIT_FAILED, cause);
        cancelTimers(e);
        notifyWatchers(e, TbActorStopReason.INIT_FAILED);
    }

    /** @return whether the actor is still in {@code INIT_FAILED} once the queues are empty (else an update came) */
    private boolean drainWhileInitFailed() {
        Object element;
        while ((status & INIT_FAILED) != 0 && (element = pollTurn()) != null) {
            notProcessedElement(element, TbActorStopReason.INIT_FAILED);
        }
        dispatcher.turnCompleted();
        return (status & INIT_FAILED) != 0;
    }

    private void destroyActor(TbActorStopReason reason, Throwable cause) {
        try {
            actor.destroy(reason, cause);
        } catch (Throwable t) {
            system.callbackFailed("destroy", selfId, t);
        }
    }

    // ---------------------------------------------------------------- stopping

    /**
     * Requests the actor to stop: no message is processed after this, the actor is destroyed on its dispatcher,
     * and its children are stopped too.
     *
     * @return whether this call made the request (false when it was already stopping)
     */
    boolean stop(TbActorStopReason reason, Throwable cause) {
        if (!STOP_REASON.compareAndSet(this, null, reason)) {
            return false;
        }
        if (cause != null) {
            extras().stopCause = cause;
        }
        if (creator != null) {
            // the actor may restart: the request waits for a creator call in progress, so none begins after it
            synchronized (extras()) {
                setBits(STOP_REQUESTED);
            }
        } else {
            setBits(STOP_REQUESTED);
        }
        system.unregister(this);
        for (TbActorMailbox child : children()) {
            child.stop(TbActorStopReason.STOPPED, null);
        }
        expediteDelayedTurn();
        trySchedule();
        return true;
    }

    private void destroyAndRelease() {
        finishDestroy(true);
        clearBits(SCHEDULED);
    }

    /** Called by the {@code SCHEDULED} holder; the first call destroys, any later one does nothing. */
    private void finishDestroy(boolean callDestroy) {
        int before = (int) STATUS.getAndBitwiseOr(this, DESTROYED);
        if ((before & DESTROYED) != 0) {
            return;
        }
        TbActorStopReason reason = currentStopReason();
        MailboxExtras e = extras;
        // like ThingsBoard, every created actor is destroyed once, even one stopped before its init ran; one whose
        // init failed was destroyed then
        if (callDestroy && actor != null && (before & INIT_FAILED) == 0) {
            destroyActor(reason, e == null ? null : e.stopCause);
        }
        if (e != null) {
            cancelTimers(e);
            notifyWatchers(e, reason);
        }
        drainQueues(reason);
        system.onDestroyed(this, reason, (before & ATTACHED) != 0);
    }

    private static void cancelTimers(MailboxExtras e) {
        for (MailboxExtras.Timer timer : e.timers) {
            timer.cancel();
        }
    }

    private void notifyWatchers(MailboxExtras e, TbActorStopReason reason) {
        for (MailboxExtras.StopWatcher watcher : e.watchers) {
            e.watchers.remove(watcher);
            watcher.onTargetStopped(selfId, reason);
        }
    }

    // ---------------------------------------------------------------- extras: timers, watchers, passivation

    MailboxExtras extras() {
        MailboxExtras e = extras;
        if (e == null) {
            MailboxExtras created = new MailboxExtras();
            Object witness = EXTRAS.compareAndExchange(this, null, created);
            e = witness == null ? created : (MailboxExtras) witness;
        }
        return e;
    }

    /**
     * Registers something to tell when this actor stops.
     *
     * @return false when the actor is already destroyed (the watcher was not kept)
     */
    boolean addStopWatcher(MailboxExtras.StopWatcher watcher) {
        MailboxExtras e = extras();
        e.watchers.add(watcher);
        if ((status & DESTROYED) != 0) {
            e.watchers.remove(watcher);
            return false;
        }
        return true;
    }

    void removeStopWatcher(MailboxExtras.StopWatcher watcher) {
        MailboxExtras e = extras;
        if (e != null) {
            e.watchers.remove(watcher);
        }
    }

    @Override
    public TbTimer scheduleOnce(TbActorMsg msg, Duration delay) {
        return schedule(msg, delay, null);
    }

    @Override
    public TbTimer schedulePeriodically(TbActorMsg msg, Duration initialDelay, Duration period) {
        Objects.requireNonNull(period, "period must not be null");
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("timer period must be positive, got " + period);
        }
        return schedule(msg, initialDelay, period);
    }

    private TbTimer schedule(TbActorMsg msg, Duration delay, Duration period) {
        Objects.requireNonNull(msg, "timer message must not be null");
        Objects.requireNonNull(delay, "timer delay must not be null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("timer delay must not be negative, got " + delay);
        }
        MailboxExtras e = extras();
        MailboxExtras.Timer timer = new MailboxExtras.Timer(e.timers, period != null);
        e.timers.add(timer);
        // a periodic timer's ticks carry the timer, so a tick queued before cancel() is withdrawn at processing time
        Delivery delivery = period == null ? null : timer;
        Runnable fire = () -> {
            if (timer.fire()) {
                enqueue(msg, false, false, delivery);
            }
        };
        long delayNanos = delay.toNanos();
        try {
            timer.bind(period == null
                    ? system.getScheduler().schedule(fire, delayNanos, TimeUnit.NANOSECONDS)
                    : system.getScheduler().scheduleAtFixedRate(fire, delayNanos, period.toNanos(), TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException rejected) {
            timer.cancel();
            throw new IllegalStateException("Cannot schedule a timer for [" + selfId + "]: the actor system is stopped", rejected);
        }
        if ((status & STOP_REQUESTED) != 0) {
            timer.cancel();
        }
        return timer;
    }

    @Override
    public void setIdleTimeout(Duration idleTimeout) {
        if (idleTimeout != null && (idleTimeout.isZero() || idleTimeout.isNegative())) {
            throw new IllegalArgumentException("idle timeout must be positive (or null to turn passivation off), got " + idleTimeout);
        }
        MailboxExtras e = extras();
        e.lastActivity = System.nanoTime();
        e.idleTimeoutNanos = idleTimeout == null ? 0 : idleTimeout.toNanos();
        if (idleTimeout != null && e.enterIdleWheel()) {
            system.idleWheel().add(this, e.lastActivity + e.idleTimeoutNanos);
        }
    }

    /** @return how many timers of this actor are live (for tests and reports) */
    int liveTimers() {
        MailboxExtras e = extras;
        return e == null ? 0 : e.timers.size();
    }

    private void drainQueues(TbActorStopReason reason) {
        Object element;
        while ((element = poll()) != null) {
            notProcessedElement(element, reason);
        }
    }

    /**
     * After a system stop gave up waiting: tell whatever is still queued, fail pending asks and cancel timers, even if
     * a stuck turn never got to destroy the actor (the scheduler that would time the asks out is gone).
     */
    void abandonAfterSystemStop() {
        TbActorStopReason reason = currentStopReason();
        MailboxExtras e = extras;
        if (e != null) {
            cancelTimers(e);
            notifyWatchers(e, reason);
        }
        drainQueues(reason);
    }

    private TbActorStopReason currentStopReason() {
        TbActorStopReason reason = stopReason;
        return reason == null ? TbActorStopReason.STOPPED : reason;
    }

    private void setBits(int bits) {
        STATUS.getAndBitwiseOr(this, bits);
    }

    private void clearBits(int bits) {
        STATUS.getAndBitwiseAnd(this, ~bits);
    }

    // ---------------------------------------------------------------- children and context

    /**
     * Links a child, unless one of the two is stopping. Both stop paths set {@code STOP_REQUESTED} before they take
     * this lock (the parent to list its children, the child to unlink itself), so a child is either listed for the
     * parent's cascade, or unlinked by its own stop, or never linked: no stopped child stays listed.
     *
     * @return false when this actor is stopping, so the caller must stop the child itself
     */
    boolean addChild(TbActorMailbox child) {
        MailboxExtras e = extras();
        synchronized (e) {
            if ((status & STOP_REQUESTED) != 0) {
                return false;
            }
            if ((child.status & STOP_REQUESTED) != 0) {
                return true;
            }
            TbActorMailbox head = e.firstChild;
            child.prevSibling = null;
            child.nextSibling = head;
            if (head != null) {
                head.prevSibling = child;
            }
            e.firstChild = child;
            child.linkedToParent = true;
            e.childCount++;
            return true;
        }
    }

    void removeChild(TbActorMailbox child) {
        MailboxExtras e = extras;
        if (e == null) {
            return;
        }
        synchronized (e) {
            if (!child.linkedToParent) {
                return;
            }
            TbActorMailbox prev = child.prevSibling;
            TbActorMailbox next = child.nextSibling;
            if (prev == null) {
                e.firstChild = next;
            } else {
                prev.nextSibling = next;
            }
            if (next != null) {
                next.prevSibling = prev;
            }
            child.prevSibling = null;
            child.nextSibling = null;
            child.linkedToParent = false;
            e.childCount--;
        }
    }

    /** @return a snapshot of the live children, newest first */
    List<TbActorMailbox> children() {
        MailboxExtras e = extras;
        if (e == null) {
            return List.of();
        }
        synchronized (e) {
            if (e.childCount == 0) {
                return List.of();
            }
            List<TbActorMailbox> snapshot = new java.util.ArrayList<>(e.childCount);
            for (TbActorMailbox child = e.firstChild; child != null; child = child.nextSibling) {
                snapshot.add(child);
            }
            return snapshot;
        }
    }

    int childCount() {
        MailboxExtras e = extras;
        if (e == null) {
            return 0;
        }
        synchronized (e) {
            return e.childCount;
        }
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

    String actorType() {
        return actorType;
    }

    /** @return messages waiting in this mailbox */
    public int pendingMessages() {
        if ((status & DESTROYED) != 0) {
            return 0;
        }
        MailboxDepth d = depth;
        if (d != null) {
            return Math.max(0, d.pending());
        }
        // not counted: walk the queues (O(depth)), which only views and tests do
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        return normalPriorityMsgs.size() + (high == null ? 0 : high.size());
    }

    ActorStats stats() {
        int s = status;
        String state;
        if ((s & DESTROYED) != 0) {
            state = "DESTROYED";
        } else if ((s & STOP_REQUESTED) != 0) {
            state = "STOPPING";
        } else if ((s & INIT_FAILED) != 0) {
            state = "INIT_FAILED";
        } else if ((s & INITIALIZED) != 0) {
            state = "ACTIVE";
        } else {
            state = "INITIALIZING";
        }
        return new ActorStats(selfId.toString(), actorType, selfId.getEntityType(), dispatcher.getName(), state,
                pendingMessages(), parent == null ? null : parent.selfId.toString(), childCount());
    }

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
        system.tell(target, msg);
    }

    @Override
    public void stop(TbActorId target) {
        system.stop(target);
    }

    @Override
    public TbActorRef getOrCreateChildActor(TbActorId actorId, Supplier<String> dispatcherSupplier,
                                            Supplier<TbActorCreator> creator, Supplier<Boolean> createCondition) {
        Objects.requireNonNull(actorId, "actorId must not be null");
        TbActorRef existing = system.getActor(actorId);
        if (existing != null) {
            return existing;
        }
        if (!Boolean.TRUE.equals(createCondition.get())) {
            return null;
        }
        return system.createChildActor(dispatcherSupplier.get(), creator.get(), selfId);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg) {
        system.broadcastToChildren(selfId, msg);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg, boolean highPriority) {
        system.broadcastToChildren(selfId, msg, highPriority);
    }

    @Override
    public void broadcastToChildren(TbActorMsg msg, Predicate<TbActorId> childFilter) {
        system.broadcastToChildren(selfId, childFilter, msg);
    }

    @Override
    public void broadcastToChildrenByType(TbActorMsg msg, String entityType) {
        system.broadcastToChildrenByType(selfId, msg, entityType);
    }

    @Override
    public List<TbActorId> filterChildren(Predicate<TbActorId> childFilter) {
        return system.filterChildren(selfId, childFilter);
    }

    @Override
    public String toString() {
        return "TbActorMailbox{" + selfId + ", " + actorType + ", dispatcher=" + dispatcher.getName() + '}';
    }

    /**
     * A message with the time it was queued ({@link #NOT_TIMED} when wait times are not recorded), the context that
     * travels with it and its delivery (each null when none); used only when one of the three is there.
     */
    private record Envelope(TbActorMsg msg, long enqueuedAt, Object context, Delivery delivery) {
    }
}
