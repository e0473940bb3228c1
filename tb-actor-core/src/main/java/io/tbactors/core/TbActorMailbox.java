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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One actor's mailbox, reference and context in one object.
 *
 * <p>All coordination goes through one status word. The {@link #SCHEDULED} bit is owned by whoever may run
 * the actor: a queued or running turn, a pending init retry, or the creating thread until the actor exists.
 * A turn processes at most {@code actorThroughput} messages, then either hands itself back to the executor
 * (more work) or clears {@code SCHEDULED} and re-checks the queues, so a message that arrived meanwhile is
 * never stranded and no extra task is submitted just to re-check.
 *
 * <p>Stopping sets {@link #STOP_REQUESTED}; after that no message is processed. The owner destroys the actor once
 * and drains the queues, telling each message why it was not processed. A sender that queued a message but
 * then sees {@code STOP_REQUESTED} drains too: every message is polled exactly once, so each gets exactly one fate.
 */
public final class TbActorMailbox implements TbActorCtx, Runnable {

    private static final Logger log = LoggerFactory.getLogger(TbActorMailbox.class);

    static final int SCHEDULED = 1;
    static final int INITIALIZED = 2;
    static final int STOP_REQUESTED = 4;
    static final int DESTROYED = 8;
    static final int ATTACHED = 16;

    /** {@link #enqueue} results. */
    static final int ACCEPTED = 0;
    static final int REFUSED_STOPPED = 1;
    static final int REFUSED_FULL = 2;

    private static final long NOT_TIMED = Long.MIN_VALUE;

    private static final VarHandle STATUS;
    private static final VarHandle ENQUEUED;
    private static final VarHandle DEQUEUED;
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
            ENQUEUED = lookup.findVarHandle(TbActorMailbox.class, "enqueued", int.class);
            DEQUEUED = lookup.findVarHandle(TbActorMailbox.class, "dequeued", int.class);
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
    // children form an intrusive doubly linked list through their mailboxes, guarded by the parent's monitor:
    // two references per child instead of a hash-set entry, and no set object at all for childless actors
    private TbActorMailbox firstChild;
    private TbActorMailbox prevSibling;
    private TbActorMailbox nextSibling;
    private int childCount;
    private boolean linkedToParent;
    private volatile int status = SCHEDULED;
    // depth = enqueued - dequeued (int arithmetic wraps consistently). Senders add to enqueued atomically; the turn
    // owner is the only writer of dequeued and counts each message with a release store, so the consumer does no
    // locked read-modify-write per message (a bounded mailbox, where a sender may drop the oldest, counts atomically)
    private volatile int enqueued;
    private volatile int dequeued;
    private volatile TbActorStopReason stopReason;
    private volatile MailboxExtras extras;
    private TbActorCreator creator;
    private final TbMailboxBound bound;
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
        this.bound = bound;
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
    }

    // ---------------------------------------------------------------- telling

    @Override
    public TbActorId getActorId() {
        return selfId;
    }

    @Override
    public void tell(TbActorMsg actorMsg) {
        enqueue(actorMsg, false, false);
    }

    @Override
    public void tellWithHighPriority(TbActorMsg actorMsg) {
        enqueue(actorMsg, true, false);
    }

    @Override
    public boolean tryTell(TbActorMsg actorMsg) {
        return enqueue(actorMsg, false, true) == ACCEPTED;
    }

    void enqueue(TbActorMsg msg, boolean highPriority) {
        enqueue(msg, highPriority, false);
    }

    /**
     * Queues a message. With {@code tryOnly} a refused message is handed back (no callback) instead of being told why.
     *
     * @return {@link #ACCEPTED}, {@link #REFUSED_STOPPED} or {@link #REFUSED_FULL}
     */
    int enqueue(TbActorMsg msg, boolean highPriority, boolean tryOnly) {
        Objects.requireNonNull(msg, "actor message must not be null");
        if ((status & STOP_REQUESTED) != 0) {
            if (!tryOnly) {
                system.notProcessed(selfId, msg, currentStopReason());
            }
            return REFUSED_STOPPED;
        }
        Object element = envelope(msg);
        TbMailboxBound limit = bound;
        if (highPriority) {
            highQueue().add(element);
            ENQUEUED.getAndAdd(this, 1);
        } else if (limit == null) {
            normalPriorityMsgs.add(element);
            ENQUEUED.getAndAdd(this, 1);
        } else if (!offerBounded(msg, element, limit, tryOnly)) {
            return REFUSED_FULL;
        }
        int s = status;
        if ((s & STOP_REQUESTED) != 0) {
            // stop raced with us: our message may have missed the owner's drain, so drain as well
            drainQueues(currentStopReason());
        } else if ((s & SCHEDULED) == 0) {
            trySchedule();
        }
        return ACCEPTED;
    }

    /** Reserves a slot under the capacity before queueing, so the bound holds under concurrent senders. */
    private boolean offerBounded(TbActorMsg msg, Object element, TbMailboxBound limit, boolean tryOnly) {
        int capacity = limit.capacity();
        for (;;) {
            int in = enqueued;
            if (in - dequeued >= capacity) {
                break;
            }
            if (ENQUEUED.compareAndSet(this, in, in + 1)) {
                normalPriorityMsgs.add(element);
                return true;
            }
        }
        if (tryOnly) {
            system.tryTellRefused(this);
            return false;
        }
        if (limit.overflowPolicy() == TbMailboxOverflowPolicy.REJECT_NEWEST) {
            system.notProcessed(selfId, msg, TbActorStopReason.MAILBOX_FULL);
            return false;
        }
        Object oldest = normalPriorityMsgs.poll();
        if (oldest != null) {
            DEQUEUED.getAndAdd(this, 1);
            system.notProcessed(selfId, unwrap(oldest), TbActorStopReason.DROPPED_OLDEST);
        }
        normalPriorityMsgs.add(element);
        ENQUEUED.getAndAdd(this, 1);
        return true;
    }

    private static TbActorMsg unwrap(Object element) {
        return element instanceof Envelope envelope ? envelope.msg() : (TbActorMsg) element;
    }

    /** @return the message itself, or an envelope when wait times are recorded or a context travels with it */
    private Object envelope(TbActorMsg msg) {
        TbMessageContextPropagator propagator = system.contextPropagator();
        Object context = propagator == null ? null : propagator.capture();
        boolean timed = system.isRecordWaitTime();
        if (!timed && context == null) {
            return msg;
        }
        return new Envelope(msg, timed ? System.nanoTime() : NOT_TIMED, context);
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
    private void submitOwnedTurn() {
        try {
            dispatcher.execute(this);
        } catch (RejectedExecutionException e) {
            log.warn("[{}] Dispatcher '{}' refused the actor's turn; stopping the actor", selfId, dispatcher.getName());
            STOP_REASON.compareAndSet(this, null, TbActorStopReason.STOPPED);
            setBits(STOP_REQUESTED);
            system.unregister(this);
            destroyAndRelease();
        }
    }

    // ---------------------------------------------------------------- the turn

    @Override
    public void run() {
        if ((status & STOP_REQUESTED) != 0) {
            destroyAndRelease();
            return;
        }
        if ((status & INITIALIZED) == 0 && !initActor()) {
            return;
        }
        int throughput = system.getActorThroughput();
        boolean atomicCount = bound != null;
        int processed = 0;
        while (processed < throughput) {
            if ((status & STOP_REQUESTED) != 0) {
                dispatcher.turnCompleted();
                destroyAndRelease();
                return;
            }
            Object element = pollTurn(atomicCount);
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

    /** Polls for the turn owner, or with {@code atomicCount} for any thread (bounded mailboxes, drains). */
    private Object pollTurn(boolean atomicCount) {
        ConcurrentLinkedQueue<Object> high = highPriorityMsgs;
        Object element = high == null ? null : high.poll();
        if (element == null) {
            element = normalPriorityMsgs.poll();
        }
        if (element != null) {
            if (atomicCount) {
                DEQUEUED.getAndAdd(this, 1);
            } else {
                DEQUEUED.setRelease(this, dequeued + 1);
            }
        }
        return element;
    }

    /** Polls from any thread (drains when stopping), counting each message atomically. */
    private Object poll() {
        return pollTurn(true);
    }

    /** @return the delay before the restarted actor's init when processing made it restart, otherwise -1 */
    private long processOne(Object element) {
        TbActorMsg msg;
        long waitNanos = -1;
        TbActorSystemListener listener = system.listener();
        TbMessageContextPropagator.Scope scope = null;
        if (element instanceof Envelope envelope) {
            msg = envelope.msg();
            if (envelope.enqueuedAt() != NOT_TIMED) {
                waitNanos = System.nanoTime() - envelope.enqueuedAt();
            }
            if (envelope.context() != null) {
                scope = system.contextPropagator().restore(envelope.context());
            }
        } else {
            msg = (TbActorMsg) element;
        }
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
                scope.close();
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
        ProcessFailureStrategy strategy;
        try {
            strategy = actor.onProcessFailure(msg, t);
        } catch (Throwable decisionFailure) {
            log.warn("[{}] onProcessFailure threw; stopping the actor", selfId, decisionFailure);
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
     * doubles with each restart in the window.
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
        e.restartsInWindow++;
        log.warn("[{}] Failed to process {}; restarting the actor ({} of at most {} within {})", selfId,
                msg.getClass().getSimpleName(), e.restartsInWindow, maxRestarts, system.getSettings().getRestartWindow(), cause);
        try {
            actor.destroy(TbActorStopReason.RESTARTED, cause);
        } catch (Throwable t) {
            log.warn("[{}] Failed to destroy actor before restart", selfId, t);
        }
        TbActor fresh;
        try {
            fresh = Objects.requireNonNull(creator.createActor(), "creator.createActor() returned null");
        } catch (Throwable t) {
            log.warn("[{}] Creator failed during restart; stopping the actor", selfId, t);
            actor = null;
            stop(TbActorStopReason.INIT_FAILED, t);
            return -1;
        }
        attachActor(fresh);
        initAttempts = 0;
        clearBits(INITIALIZED);
        long backoff = system.getSettings().getRestartBackoff().toNanos();
        system.actorRestarted(this);
        return backoff << Math.min(20, e.restartsInWindow - 1);
    }

    /** Runs the next turn after a delay, keeping {@code SCHEDULED} meanwhile; a stop cancels the wait. */
    private void scheduleOwnedTurn(long delayNanos) {
        if (delayNanos <= 0) {
            submitOwnedTurn();
            return;
        }
        try {
            extras().initRetry = system.getScheduler().schedule(this::submitOwnedTurn, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            submitOwnedTurn();
            return;
        }
        if ((status & STOP_REQUESTED) != 0) {
            cancelInitRetry();
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
            return onInitFailure(t);
        }
    }

    private boolean onInitFailure(Throwable t) {
        int attempt = initAttempts;
        TbActorSystemListener listener = system.listener();
        if (listener != null) {
            listener.onInitFailure(selfId, dispatcher.getName(), actorType, attempt, t);
        }
        InitFailureStrategy strategy;
        if (attempt >= system.getMaxActorInitAttempts()) {
            strategy = InitFailureStrategy.stop();
        } else {
            try {
                strategy = Objects.requireNonNullElse(actor.onInitFailure(attempt, t), InitFailureStrategy.stop());
            } catch (Throwable decisionFailure) {
                log.warn("[{}] onInitFailure threw; stopping the actor", selfId, decisionFailure);
                strategy = InitFailureStrategy.stop();
            }
        }
        if (strategy.isStop()) {
            log.warn("[{}] Failed to init actor, attempt {} of at most {}; stopping it", selfId, attempt,
                    system.getMaxActorInitAttempts(), t);
            stop(TbActorStopReason.INIT_FAILED, t);
            destroyAndRelease();
        } else if (strategy.getRetryDelay() == 0) {
            log.debug("[{}] Failed to init actor, attempt {}; retrying now", selfId, attempt, t);
            submitOwnedTurn();
        } else {
            log.debug("[{}] Failed to init actor, attempt {}; retrying in {} ms", selfId, attempt, strategy.getRetryDelay(), t);
            scheduleInitRetry(strategy.getRetryDelay());
        }
        return false;
    }

    private void scheduleInitRetry(long delayMs) {
        scheduleOwnedTurn(TimeUnit.MILLISECONDS.toNanos(delayMs));
    }

    private void cancelInitRetry() {
        MailboxExtras e = extras;
        ScheduledFuture<?> retry = e == null ? null : e.initRetry;
        if (retry != null && retry.cancel(false)) {
            // the cancelled retry held SCHEDULED for us: run the destroying turn now instead of after the delay
            e.initRetry = null;
            submitOwnedTurn();
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
        setBits(STOP_REQUESTED);
        system.unregister(this);
        for (TbActorMailbox child : children()) {
            child.stop(TbActorStopReason.STOPPED, null);
        }
        cancelInitRetry();
        trySchedule();
        return true;
    }

    private void destroyAndRelease() {
        finishDestroy(true);
        clearBits(SCHEDULED);
    }

    private void finishDestroy(boolean callDestroy) {
        if ((status & DESTROYED) != 0) {
            return;
        }
        TbActorStopReason reason = currentStopReason();
        // like ThingsBoard, every created actor is destroyed once, even one stopped before its init ran
        if (callDestroy && actor != null) {
            try {
                MailboxExtras e = extras;
                actor.destroy(reason, e == null ? null : e.stopCause);
            } catch (Throwable t) {
                log.warn("[{}] Failed to destroy actor", selfId, t);
            }
        }
        setBits(DESTROYED);
        MailboxExtras e = extras;
        if (e != null) {
            for (MailboxExtras.Timer timer : e.timers) {
                timer.cancel();
            }
            for (MailboxExtras.StopWatcher watcher : e.watchers) {
                watcher.onTargetStopped(selfId, reason);
            }
            e.watchers.clear();
        }
        drainQueues(reason);
        system.onDestroyed(this, reason, (status & ATTACHED) != 0);
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
        Runnable fire = () -> {
            if (timer.fire()) {
                enqueue(msg, false, false);
            }
        };
        long delayNanos = delay.toNanos();
        timer.bind(period == null
                ? system.getScheduler().schedule(fire, delayNanos, TimeUnit.NANOSECONDS)
                : system.getScheduler().scheduleAtFixedRate(fire, delayNanos, period.toNanos(), TimeUnit.NANOSECONDS));
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
        if (idleTimeout != null && !e.inIdleWheel) {
            e.inIdleWheel = true;
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
            system.notProcessed(selfId, unwrap(element), reason);
        }
    }

    /** After a system stop: tell whatever is still queued, even if a stuck turn never got to destroy the actor. */
    void drainAfterSystemStop() {
        drainQueues(currentStopReason());
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

    void addChild(TbActorMailbox child) {
        synchronized (this) {
            TbActorMailbox head = firstChild;
            child.prevSibling = null;
            child.nextSibling = head;
            if (head != null) {
                head.prevSibling = child;
            }
            firstChild = child;
            child.linkedToParent = true;
            childCount++;
        }
    }

    void removeChild(TbActorMailbox child) {
        synchronized (this) {
            if (!child.linkedToParent) {
                return;
            }
            TbActorMailbox prev = child.prevSibling;
            TbActorMailbox next = child.nextSibling;
            if (prev == null) {
                firstChild = next;
            } else {
                prev.nextSibling = next;
            }
            if (next != null) {
                next.prevSibling = prev;
            }
            child.prevSibling = null;
            child.nextSibling = null;
            child.linkedToParent = false;
            childCount--;
        }
    }

    /** @return a snapshot of the live children, newest first */
    List<TbActorMailbox> children() {
        synchronized (this) {
            if (childCount == 0) {
                return List.of();
            }
            List<TbActorMailbox> snapshot = new java.util.ArrayList<>(childCount);
            for (TbActorMailbox child = firstChild; child != null; child = child.nextSibling) {
                snapshot.add(child);
            }
            return snapshot;
        }
    }

    int childCount() {
        synchronized (this) {
            return childCount;
        }
    }

    boolean isStopRequested() {
        return (status & STOP_REQUESTED) != 0;
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
        return Math.max(0, enqueued - dequeued);
    }

    ActorStats stats() {
        int s = status;
        String state;
        if ((s & DESTROYED) != 0) {
            state = "DESTROYED";
        } else if ((s & STOP_REQUESTED) != 0) {
            state = "STOPPING";
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
     * A message with the time it was queued ({@link #NOT_TIMED} when wait times are not recorded) and the context
     * that travels with it (null when none); used only when one of the two is on.
     */
    private record Envelope(TbActorMsg msg, long enqueuedAt, Object context) {
    }
}
