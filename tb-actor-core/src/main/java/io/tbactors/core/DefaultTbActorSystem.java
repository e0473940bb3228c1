package io.tbactors.core;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorStoppedException;
import io.tbactors.api.TbActorSystem;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.Dispatchers;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.DeadLetterListener;
import io.tbactors.core.observe.DeadLetterReason;
import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actor system: a registry of actors by id, named dispatchers that run them, and a scheduler.
 *
 * <p>Creating an actor puts a placeholder mailbox into the registry with {@code putIfAbsent} before the creator is
 * asked for the actor, so for one live id the creator runs at most once, whatever the concurrency and even when it
 * throws (then the placeholder is removed and whatever was told to it is told {@code INIT_FAILED}).
 */
public class DefaultTbActorSystem implements TbActorSystem, TbActorSystemIntrospection {

    private static final Logger log = LoggerFactory.getLogger(DefaultTbActorSystem.class);

    private static final int RUNNING = 0;
    private static final int STOPPING = 1;
    private static final int STOPPED = 2;

    private final TbActorSystemSettings settings;
    private final TbActorSystemListener listener;
    private final ConcurrentMap<String, Dispatcher> dispatchers = new ConcurrentHashMap<>();
    private final ConcurrentMap<TbActorId, TbActorMailbox> actors = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;
    private final AtomicInteger liveActors = new AtomicInteger();
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final LongAdder toldAfterStop = new LongAdder();
    private final LongAdder notProcessed = new LongAdder();
    private final Object stopMonitor = new Object();
    private final LongAdder deadLetters = new LongAdder();
    private final LongAdder slowProcessing = new LongAdder();
    private final LongAdder restarts = new LongAdder();
    private final LongAdder tryTellRefused = new LongAdder();
    private final LongAdder passivated = new LongAdder();
    private final LongAdder callbackFailures = new LongAdder();
    private final CountDownLatch stopDone = new CountDownLatch(1);
    private volatile boolean stoppedCleanly;
    private final AtomicLong askSequence = new AtomicLong();
    private final List<DeadLetterListener> deadLetterListeners = new CopyOnWriteArrayList<>();
    private final RateLimitedWarning deadLetterWarning;
    private final RateLimitedWarning slowProcessingWarning;
    private final RateLimitedWarning callbackFailureWarning;
    private final TbMessageContextPropagator contextPropagator;
    private final long slowProcessingNanos;
    private final IdleWheel idleWheel;
    private final LongSupplier nanoClock;

    /** @param settings the settings */
    public DefaultTbActorSystem(TbActorSystemSettings settings) {
        this(settings, TbActorSystemListener.NOOP);
    }

    /**
     * @param settings the settings
     * @param listener receives the runtime's events (for metrics); {@link TbActorSystemListener#NOOP} for none
     */
    public DefaultTbActorSystem(TbActorSystemSettings settings, TbActorSystemListener listener) {
        this.settings = Objects.requireNonNull(settings, "settings must not be null");
        Objects.requireNonNull(listener, "listener must not be null; use TbActorSystemListener.NOOP for none");
        this.listener = listener == TbActorSystemListener.NOOP ? null : new ContainedListener(listener, this);
        this.contextPropagator = settings.getContextPropagator();
        this.scheduler = settings.getSchedulerFactory() != null ? settings.getSchedulerFactory().get()
                : new SafeScheduledExecutor(settings.getSchedulerPoolSize(), "tb-actors-scheduler");
        long logInterval = settings.getRateLimitedLogInterval().toNanos();
        this.deadLetterWarning = new RateLimitedWarning(logInterval);
        this.slowProcessingWarning = new RateLimitedWarning(logInterval);
        this.callbackFailureWarning = new RateLimitedWarning(logInterval);
        this.slowProcessingNanos = settings.getSlowProcessingThreshold() == null ? -1 : settings.getSlowProcessingThreshold().toNanos();
        this.nanoClock = settings.getNanoClock() != null ? settings.getNanoClock() : System::nanoTime;
        this.idleWheel = new IdleWheel(this, settings.getPassivationTick().toNanos());
    }

    /** @return the settings this system runs with */
    public TbActorSystemSettings getSettings() {
        return settings;
    }

    @Override
    public ScheduledExecutorService getScheduler() {
        return scheduler;
    }

    // ---------------------------------------------------------------- dispatchers

    @Override
    public void createDispatcher(String dispatcherId, ExecutorService executor) {
        Objects.requireNonNull(executor, "executor must not be null");
        registerDispatcher(new Dispatcher(requireDispatcherName(dispatcherId), executor, DispatcherKind.CUSTOM, poolSizeOf(executor)));
    }

    /**
     * Creates and registers a dispatcher of a standard kind.
     *
     * @param dispatcherId the new dispatcher's name
     * @param kind fork-join, single or virtual
     * @param poolSize threads for fork-join (at least 1); ignored by the other kinds
     * @return the dispatcher
     */
    public Dispatcher createDispatcher(String dispatcherId, DispatcherKind kind, int poolSize) {
        String name = requireDispatcherName(dispatcherId);
        if (dispatchers.containsKey(name)) {
            throw duplicateDispatcher(name);
        }
        ExecutorService executor = Dispatchers.create(name, kind, poolSize);
        DispatcherKind effective = kind == DispatcherKind.FORK_JOIN && poolSize == 1 ? DispatcherKind.SINGLE : kind;
        int effectivePool = switch (effective) {
            case SINGLE -> 1;
            case VIRTUAL -> 0;
            default -> poolSize;
        };
        Dispatcher dispatcher = new Dispatcher(name, executor, effective, effectivePool);
        try {
            registerDispatcher(dispatcher);
        } catch (IllegalArgumentException e) {
            executor.shutdownNow();
            throw e;
        }
        return dispatcher;
    }

    private void registerDispatcher(Dispatcher dispatcher) {
        ensureRunning("create a dispatcher");
        if (dispatchers.putIfAbsent(dispatcher.getName(), dispatcher) != null) {
            throw duplicateDispatcher(dispatcher.getName());
        }
    }

    private static IllegalArgumentException duplicateDispatcher(String name) {
        return new IllegalArgumentException("Dispatcher '" + name + "' is already registered; destroy it first or pick another name");
    }

    private static String requireDispatcherName(String dispatcherId) {
        if (dispatcherId == null || dispatcherId.isBlank()) {
            throw new IllegalArgumentException("Dispatcher name must not be null or blank");
        }
        return dispatcherId;
    }

    private static int poolSizeOf(ExecutorService executor) {
        if (executor instanceof java.util.concurrent.ForkJoinPool fj) {
            return fj.getParallelism();
        } else if (executor instanceof java.util.concurrent.ThreadPoolExecutor tpe) {
            return tpe.getMaximumPoolSize();
        }
        return 0;
    }

    /**
     * Bounds the normal-priority mailboxes of actors created on a dispatcher from now on (an actor's creator may
     * still choose its own bound).
     *
     * @param dispatcherId the dispatcher
     * @param bound the bound, or null for unbounded
     */
    public void setMailboxBound(String dispatcherId, TbMailboxBound bound) {
        Dispatcher dispatcher = dispatchers.get(dispatcherId);
        if (dispatcher == null) {
            throw unknownDispatcher(dispatcherId);
        }
        dispatcher.setMailboxBound(bound);
    }

    /**
     * Stops the dispatcher's actors (each is destroyed once and its undelivered messages are told {@code STOPPED}),
     * then shuts its executor down, within the {@link TbActorSystemSettings#getShutdownTimeout() shutdown timeout}.
     * Turns already queued still run, so no actor is left holding a turn that will never come.
     */
    @Override
    public void destroyDispatcher(String dispatcherId) {
        Dispatcher dispatcher = dispatchers.remove(dispatcherId);
        if (dispatcher == null) {
            throw unknownDispatcher(dispatcherId);
        }
        long deadline = System.nanoTime() + settings.getShutdownTimeout().toNanos();
        List<TbActorMailbox> onIt = new ArrayList<>();
        for (TbActorMailbox mailbox : actors.values()) {
            if (mailbox.dispatcher() == dispatcher) {
                onIt.add(mailbox);
                mailbox.stop(TbActorStopReason.STOPPED, null);
            }
        }
        for (TbActorMailbox mailbox : onIt) {
            while (!mailbox.isDestroyed() && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        dispatcher.getExecutor().shutdown();
        if (!awaitTermination(dispatcher.getExecutor(), deadline)) {
            log.warn("Dispatcher '{}' did not end within {}; its threads were interrupted", dispatcherId,
                    settings.getShutdownTimeout());
            for (TbActorMailbox mailbox : onIt) {
                mailbox.abandonAfterSystemStop();
            }
        }
    }

    private IllegalArgumentException unknownDispatcher(String dispatcherId) {
        return new IllegalArgumentException("Dispatcher '" + dispatcherId + "' is not registered; registered: "
                + new TreeSet<>(dispatchers.keySet()));
    }

    /**
     * @param dispatcherId a name
     * @return the dispatcher with that name, if registered
     */
    public Optional<Dispatcher> getDispatcher(String dispatcherId) {
        return Optional.ofNullable(dispatchers.get(dispatcherId));
    }

    // ---------------------------------------------------------------- actors

    @Override
    public TbActorRef getActor(TbActorId actorId) {
        return actors.get(Objects.requireNonNull(actorId, "actorId must not be null"));
    }

    @Override
    public TbActorRef createRootActor(String dispatcherId, TbActorCreator creator) {
        return createActor(dispatcherId, creator, null);
    }

    /** A null {@code parent} creates a root actor, as ThingsBoard's runtime does. */
    @Override
    public TbActorRef createChildActor(String dispatcherId, TbActorCreator creator, TbActorId parent) {
        return createActor(dispatcherId, creator, parent);
    }

    private TbActorRef createActor(String dispatcherId, TbActorCreator creator, TbActorId parentId) {
        Objects.requireNonNull(creator, "creator must not be null");
        ensureRunning("create an actor");
        Dispatcher dispatcher = dispatchers.get(requireDispatcherName(dispatcherId));
        if (dispatcher == null) {
            throw unknownDispatcher(dispatcherId);
        }
        TbActorMailbox parent = null;
        if (parentId != null) {
            parent = actors.get(parentId);
            if (parent == null || parent.isStopRequested()) {
                throw new TbActorNotRegisteredException(parentId, "Parent actor with id [" + parentId + "] is not registered");
            }
        }
        TbActorId actorId = Objects.requireNonNull(creator.createActorId(), "creator.createActorId() returned null");
        TbActorMailbox existing = actors.get(actorId);
        if (existing != null) {
            return existing;
        }
        TbMailboxBound bound = creator.getMailboxBound() != null ? creator.getMailboxBound() : dispatcher.getMailboxBound();
        TbActorMailbox mailbox = new TbActorMailbox(this, actorId, parent, dispatcher, creator, bound);
        existing = actors.putIfAbsent(actorId, mailbox);
        if (existing != null) {
            return existing;
        }
        liveActors.incrementAndGet();
        // linked before the creator runs, so a stop of the placeholder (or of the parent) meanwhile unlinks it
        boolean parentStopping = parent != null && !parent.addChild(mailbox);
        TbActor actor;
        try {
            actor = Objects.requireNonNull(creator.createActor(), "creator.createActor() returned null");
        } catch (Throwable t) {
            // any throwable, checked ones thrown sneakily included: the placeholder must not stay registered
            unregister(mailbox);
            mailbox.failCreation(t);
            throw sneaky(t);
        }
        mailbox.attachActor(actor);
        dispatcher.actorAdded();
        if (listener != null) {
            listener.onActorCreated(dispatcher.getName(), mailbox.actorType());
        }
        if (parentStopping || state.get() != RUNNING) {
            mailbox.stop(TbActorStopReason.STOPPED, null);
        }
        mailbox.start();
        return mailbox;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Override
    public void tell(TbActorId target, TbActorMsg actorMsg) {
        mailboxFor(target, actorMsg).ifPresent(mailbox -> mailbox.enqueue(actorMsg, false));
    }

    @Override
    public void tellWithHighPriority(TbActorId target, TbActorMsg actorMsg) {
        mailboxFor(target, actorMsg).ifPresent(mailbox -> mailbox.enqueue(actorMsg, true));
    }

    private Optional<TbActorMailbox> mailboxFor(TbActorId target, TbActorMsg actorMsg) {
        Objects.requireNonNull(target, "target must not be null");
        Objects.requireNonNull(actorMsg, "actor message must not be null");
        TbActorMailbox mailbox = actors.get(target);
        if (mailbox != null) {
            return Optional.of(mailbox);
        }
        if (state.get() != RUNNING) {
            notProcessed(target, actorMsg, TbActorStopReason.STOPPED);
            return Optional.empty();
        }
        publishDeadLetter(new DeadLetter(target, actorMsg, DeadLetterReason.NOT_REGISTERED));
        throw new TbActorNotRegisteredException(target, "Actor with id [" + target + "] is not registered!");
    }

    @Override
    public void stop(TbActorRef actorRef) {
        stop(Objects.requireNonNull(actorRef, "actorRef must not be null").getActorId());
    }

    @Override
    public void stop(TbActorId actorId) {
        TbActorMailbox mailbox = actors.get(Objects.requireNonNull(actorId, "actorId must not be null"));
        if (mailbox != null) {
            mailbox.stop(TbActorStopReason.STOPPED, null);
        }
    }

    void unregister(TbActorMailbox mailbox) {
        actors.remove(mailbox.getSelf(), mailbox);
        TbActorMailbox parent = mailbox.parent();
        if (parent != null) {
            parent.removeChild(mailbox);
        }
    }

    void onDestroyed(TbActorMailbox mailbox, TbActorStopReason reason, boolean actorExisted) {
        if (actorExisted) {
            mailbox.dispatcher().actorRemoved();
            if (listener != null) {
                listener.onActorDestroyed(mailbox.dispatcher().getName(), mailbox.actorType(), reason);
            }
        }
        if (liveActors.decrementAndGet() == 0 && state.get() != RUNNING) {
            synchronized (stopMonitor) {
                stopMonitor.notifyAll();
            }
        }
    }

    void notProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
        boolean afterStop = state.get() != RUNNING;
        notProcessed.increment();
        if (afterStop) {
            toldAfterStop.increment();
        }
        try {
            msg.onTbActorStopped(reason);
        } catch (Throwable t) {
            callbackFailed("onTbActorStopped of " + msg.getClass().getName(), target, t);
        }
        if (listener != null) {
            listener.onMessageNotProcessed(target, msg, reason, afterStop);
        }
        publishDeadLetter(new DeadLetter(target, msg, DeadLetterReason.of(reason, afterStop)));
    }

    private void publishDeadLetter(DeadLetter letter) {
        deadLetters.increment();
        for (DeadLetterListener deadLetterListener : deadLetterListeners) {
            try {
                deadLetterListener.onDeadLetter(letter);
            } catch (Throwable t) {
                callbackFailed("dead-letter listener " + deadLetterListener, letter.target(), t);
            }
        }
        if (log.isInfoEnabled()) {
            long heldBack = deadLetterWarning.tryAcquire();
            if (heldBack >= 0) {
                log.info("Dead letter: {} to [{}] not processed ({}); {} more since the last report",
                        letter.message().getClass().getSimpleName(), letter.target(), letter.reason(), heldBack);
            }
        }
    }

    /**
     * Subscribes to dead letters.
     *
     * @param deadLetterListener called for each message that reached no actor
     */
    public void addDeadLetterListener(DeadLetterListener deadLetterListener) {
        deadLetterListeners.add(Objects.requireNonNull(deadLetterListener, "deadLetterListener must not be null"));
    }

    /** @param deadLetterListener a listener added before; it gets no more letters */
    public void removeDeadLetterListener(DeadLetterListener deadLetterListener) {
        deadLetterListeners.remove(deadLetterListener);
    }

    void tryTellRefused(TbActorMailbox mailbox) {
        tryTellRefused.increment();
        if (listener != null) {
            listener.onTryTellRefused(mailbox.dispatcher().getName(), mailbox.actorType());
        }
    }

    void actorRestarted(TbActorMailbox mailbox) {
        restarts.increment();
        if (listener != null) {
            listener.onActorRestarted(mailbox.dispatcher().getName(), mailbox.actorType());
        }
    }

    long slowProcessingNanos() {
        return slowProcessingNanos;
    }

    void slowProcessing(TbActorMailbox mailbox, TbActorMsg msg, long tookNanos) {
        slowProcessing.increment();
        if (listener != null) {
            listener.onSlowProcessing(mailbox.dispatcher().getName(), mailbox.actorType(), tookNanos);
        }
        long heldBack = slowProcessingWarning.tryAcquire();
        if (heldBack >= 0) {
            log.warn("[{}] {} took {} ms to process {} (threshold {} ms): blocking code holds a '{}' dispatcher thread; "
                            + "{} more slow calls since the last report", mailbox.getSelf(), mailbox.actorType(),
                    TimeUnit.NANOSECONDS.toMillis(tookNanos), msg.getClass().getSimpleName(),
                    TimeUnit.NANOSECONDS.toMillis(slowProcessingNanos), mailbox.dispatcher().getName(), heldBack);
        }
    }

    /** @return now on the clock idle passivation measures with */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    IdleWheel idleWheel() {
        return idleWheel;
    }

    void passivate(TbActorMailbox mailbox) {
        if (mailbox.stop(TbActorStopReason.IDLE, null)) {
            passivated.increment();
        }
    }

    // ---------------------------------------------------------------- request/reply

    /**
     * Sends a request and returns its reply. The request is built by {@code request} from a reply-to reference; the
     * actor answers by telling that reference. The future completes with the first reply, or exceptionally with a
     * {@link TimeoutException} after {@code timeout} (measured by the system's scheduler), with a
     * {@link TbActorStoppedException} when the target stops or refuses the request, or with a
     * {@link TbActorNotRegisteredException} when no actor has the id. Nothing stays registered once it completes.
     *
     * @param target the actor to ask
     * @param request builds the request message around the reply-to reference
     * @param timeout how long to wait for the reply; positive
     * @param <R> the reply's type
     * @return the reply
     */
    public <R extends TbActorMsg> CompletableFuture<R> ask(TbActorId target, Function<TbActorRef, ? extends TbActorMsg> request,
                                                           Duration timeout) {
        Objects.requireNonNull(target, "target must not be null");
        Objects.requireNonNull(request, "request must not be null");
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("ask timeout must be positive, got " + timeout);
        }
        CompletableFuture<R> future = new CompletableFuture<>();
        TbActorMailbox mailbox = actors.get(target);
        if (mailbox == null) {
            future.completeExceptionally(state.get() != RUNNING
                    ? new TbActorStoppedException(target, TbActorStopReason.STOPPED, "The actor system is stopped")
                    : new TbActorNotRegisteredException(target, "Actor with id [" + target + "] is not registered!"));
            return future;
        }
        AskReplyRef<R> replyTo = new AskReplyRef<>(
                new io.tbactors.api.TbStringActorId("ask-" + askSequence.incrementAndGet() + "->" + target), target, future);
        TbActorMsg msg = Objects.requireNonNull(request.apply(replyTo), "request function returned null");
        if (!mailbox.addStopWatcher(replyTo)) {
            future.completeExceptionally(new TbActorStoppedException(target, TbActorStopReason.STOPPED,
                    "Actor [" + target + "] stopped before the request was sent"));
            return future;
        }
        ScheduledFuture<?> timer;
        try {
            timer = scheduler.schedule(() -> future.completeExceptionally(new TimeoutException(
                    "No reply from [" + target + "] within " + timeout)), timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the system stopped since the lookup: nothing would ever time this ask out
            mailbox.removeStopWatcher(replyTo);
            future.completeExceptionally(new TbActorStoppedException(target, TbActorStopReason.STOPPED, "The actor system is stopped"));
            return future;
        }
        future.whenComplete((reply, failure) -> {
            timer.cancel(false);
            mailbox.removeStopWatcher(replyTo);
        });
        // the request carries the reply reference as its delivery: refused, dropped or drained, it fails the future
        mailbox.enqueue(msg, false, false, replyTo);
        return future;
    }

    // ---------------------------------------------------------------- broadcast

    @Override
    public void broadcastToChildren(TbActorId parent, TbActorMsg msg) {
        broadcastToChildren(parent, msg, false);
    }

    @Override
    public void broadcastToChildren(TbActorId parent, TbActorMsg msg, boolean highPriority) {
        broadcast(parent, id -> true, msg, highPriority);
    }

    @Override
    public void broadcastToChildren(TbActorId parent, Predicate<TbActorId> childFilter, TbActorMsg msg) {
        broadcast(parent, Objects.requireNonNull(childFilter, "childFilter must not be null"), msg, false);
    }

    private void broadcast(TbActorId parentId, Predicate<TbActorId> filter, TbActorMsg msg, boolean highPriority) {
        Objects.requireNonNull(parentId, "parent must not be null");
        Objects.requireNonNull(msg, "actor message must not be null");
        TbActorMailbox parent = actors.get(parentId);
        if (parent == null) {
            return;
        }
        for (TbActorMailbox child : parent.children()) {
            if (filter.test(child.getSelf())) {
                child.enqueue(msg, highPriority);
            }
        }
    }

    @Override
    public List<TbActorId> filterChildren(TbActorId parentId, Predicate<TbActorId> childFilter) {
        Objects.requireNonNull(parentId, "parent must not be null");
        Objects.requireNonNull(childFilter, "childFilter must not be null");
        TbActorMailbox parent = actors.get(parentId);
        if (parent == null) {
            return List.of();
        }
        List<TbActorId> result = new ArrayList<>();
        for (TbActorMailbox child : parent.children()) {
            if (childFilter.test(child.getSelf())) {
                result.add(child.getSelf());
            }
        }
        return result;
    }

    // ---------------------------------------------------------------- stopping the system

    /** @return whether the system accepts new actors and messages */
    public boolean isRunning() {
        return state.get() == RUNNING;
    }

    /**
     * Waits until every mailbox is empty and no actor is running a turn, or the timeout passes. Messages keep
     * flowing meanwhile: this is how a graceful shutdown lets work in flight finish before {@link #stop()}.
     *
     * @param timeout the longest wait
     * @return whether the system became quiet in time
     */
    public boolean awaitQuiescence(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (isQuiet()) {
                // confirm after a short pause: a message may have been in a thread's hands between two mailboxes
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                if (isQuiet()) {
                    return true;
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private boolean isQuiet() {
        for (TbActorMailbox mailbox : actors.values()) {
            if (!mailbox.isIdle() && !mailbox.isStopRequested()) {
                return false;
            }
        }
        return true;
    }

    /** Stops the system within the configured {@link TbActorSystemSettings#getShutdownTimeout() shutdown timeout}. */
    @Override
    public void stop() {
        stop(settings.getShutdownTimeout());
    }

    /**
     * Stops every actor (each is destroyed once, on its dispatcher, and its undelivered messages are told
     * {@code STOPPED}), then the dispatchers and the scheduler. Messages told afterwards are told {@code STOPPED}
     * at once. Returns within about {@code timeout}; actors still busy by then are left to their threads,
     * whose undelivered messages are drained here.
     *
     * @param timeout the longest wait
     * @return whether everything ended in time
     */
    public boolean stop(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (!state.compareAndSet(RUNNING, STOPPING)) {
            // another caller is stopping the system: wait for it (within our own timeout) and share its result
            try {
                return stopDone.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && stoppedCleanly;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TbActorMailbox> all = new ArrayList<>(actors.values());
        for (TbActorMailbox mailbox : all) {
            if (mailbox.parent() == null) {
                mailbox.stop(TbActorStopReason.STOPPED, null);
            }
        }
        for (TbActorMailbox mailbox : all) {
            mailbox.stop(TbActorStopReason.STOPPED, null);
        }
        boolean clean = awaitNoLiveActors(deadline);
        if (!clean) {
            log.warn("Actor system stop: {} actor(s) not destroyed within {}; their threads are interrupted",
                    liveActors.get(), timeout);
        }
        for (Dispatcher dispatcher : dispatchers.values()) {
            dispatcher.getExecutor().shutdown();
        }
        for (Dispatcher dispatcher : dispatchers.values()) {
            clean &= awaitTermination(dispatcher.getExecutor(), deadline);
        }
        scheduler.shutdownNow();
        for (TbActorMailbox mailbox : all) {
            mailbox.abandonAfterSystemStop();
        }
        stoppedCleanly = clean;
        state.set(STOPPED);
        stopDone.countDown();
        log.info("Actor system stopped{}", clean ? "" : " (timed out, see warnings above)");
        return clean;
    }

    private boolean awaitNoLiveActors(long deadline) {
        synchronized (stopMonitor) {
            while (liveActors.get() > 0) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(stopMonitor, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private static boolean awaitTermination(ExecutorService executor, long deadline) {
        try {
            long remaining = Math.max(0, deadline - System.nanoTime());
            if (executor.awaitTermination(remaining, TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
        return false;
    }

    private void ensureRunning(String action) {
        if (state.get() != RUNNING) {
            throw new IllegalStateException("Cannot " + action + ": the actor system is stopped");
        }
    }

    // ---------------------------------------------------------------- observability

    /** @return number of live actors (created and not yet destroyed) */
    public int getActorCount() {
        return liveActors.get();
    }

    /** @return messages told after the system stopped (each was told {@code STOPPED}) */
    public long getToldAfterStopCount() {
        return toldAfterStop.sum();
    }

    /** @return dead letters so far: messages to unknown or stopped actors, refused or dropped by full mailboxes */
    public long getDeadLetterCount() {
        return deadLetters.sum();
    }

    /** @return {@code process} calls that took longer than the slow-processing threshold */
    public long getSlowProcessingCount() {
        return slowProcessing.sum();
    }

    /** @return actors restarted after a failure */
    public long getRestartCount() {
        return restarts.sum();
    }

    /** @return {@code tryTell} calls refused by a full mailbox */
    public long getTryTellRefusedCount() {
        return tryTellRefused.sum();
    }

    /** @return actors stopped for being idle */
    public long getPassivatedCount() {
        return passivated.sum();
    }

    /**
     * @return failures of user code and plug-ins that the runtime contained (listeners, context propagators,
     *         dead-letter listeners, {@code onTbActorStopped}, {@code destroy}, failure-strategy decisions)
     */
    public long getCallbackFailureCount() {
        return callbackFailures.sum();
    }

    /** @return messages that were not processed and were told why */
    public long getNotProcessedCount() {
        return notProcessed.sum();
    }

    /** @return one view per dispatcher, sorted by name */
    public List<DispatcherStats> getDispatcherStats() {
        Map<String, Long> pending = new java.util.HashMap<>();
        for (TbActorMailbox mailbox : actors.values()) {
            pending.merge(mailbox.dispatcher().getName(), (long) mailbox.pendingMessages(), Long::sum);
        }
        List<DispatcherStats> result = new ArrayList<>();
        for (Dispatcher d : dispatchers.values()) {
            result.add(new DispatcherStats(d.getName(), d.getKind().label(), d.getPoolSize(), d.getThreads(), d.getActiveThreads(),
                    d.getQueuedTasks(), d.getCompletedTurns(), d.getActorCount(), pending.getOrDefault(d.getName(), 0L),
                    d.isTerminated()));
        }
        result.sort(Comparator.comparing(DispatcherStats::name));
        return result;
    }

    /**
     * @param actorId an id
     * @return the actor's view, if registered
     */
    public Optional<ActorStats> getActorStats(TbActorId actorId) {
        TbActorMailbox mailbox = actors.get(actorId);
        return mailbox == null ? Optional.empty() : Optional.of(mailbox.stats());
    }

    /**
     * Finds an actor by the string form of its id, for tools that only have text (an HTTP path, say).
     *
     * @param id the id's {@code toString()}
     * @return the actor's view, if one is registered
     */
    public Optional<ActorStats> findActorStats(String id) {
        for (TbActorMailbox mailbox : actors.values()) {
            if (mailbox.getSelf().toString().equals(id)) {
                return Optional.of(mailbox.stats());
            }
        }
        return Optional.empty();
    }

    /**
     * @param limit how many to return
     * @return the actors with the most waiting messages, largest first
     */
    public List<ActorStats> getLargestMailboxes(int limit) {
        if (limit < 1) {
            return List.of();
        }
        PriorityQueue<TbActorMailbox> top = new PriorityQueue<>(Comparator.comparingInt(TbActorMailbox::pendingMessages));
        for (TbActorMailbox mailbox : actors.values()) {
            if (mailbox.pendingMessages() == 0) {
                continue;
            }
            top.add(mailbox);
            if (top.size() > limit) {
                top.poll();
            }
        }
        List<ActorStats> result = new ArrayList<>();
        for (TbActorMailbox mailbox : top) {
            result.add(mailbox.stats());
        }
        result.sort(Comparator.comparingInt(ActorStats::pendingMessages).reversed());
        return result;
    }

    /** @return live actors counted by dispatcher, then by actor type */
    public Map<String, Map<String, Integer>> getActorCountsByDispatcherAndType() {
        Map<String, Map<String, Integer>> counts = new java.util.TreeMap<>();
        for (TbActorMailbox mailbox : actors.values()) {
            counts.computeIfAbsent(mailbox.dispatcher().getName(), k -> new java.util.TreeMap<>())
                    .merge(mailbox.actorType(), 1, Integer::sum);
        }
        return counts;
    }

    /** @return total messages waiting in all mailboxes */
    public long getPendingMessages() {
        long total = 0;
        for (TbActorMailbox mailbox : actors.values()) {
            total += mailbox.pendingMessages();
        }
        return total;
    }

    // ---------------------------------------------------------------- for mailboxes

    TbActorSystemListener listener() {
        return listener;
    }

    boolean isRecordWaitTime() {
        return settings.isRecordWaitTime();
    }

    /** @return the sender's context to carry with a message, or null; a propagator that throws carries nothing */
    Object captureContext() {
        TbMessageContextPropagator propagator = contextPropagator;
        if (propagator == null) {
            return null;
        }
        try {
            return propagator.capture();
        } catch (Throwable t) {
            callbackFailed("context propagator capture", null, t);
            return null;
        }
    }

    /** @return the scope to close after processing, or null when restoring failed (the message is processed anyway) */
    TbMessageContextPropagator.Scope restoreContext(Object context) {
        try {
            return contextPropagator.restore(context);
        } catch (Throwable t) {
            callbackFailed("context propagator restore", null, t);
            return null;
        }
    }

    void closeContext(TbMessageContextPropagator.Scope scope) {
        try {
            scope.close();
        } catch (Throwable t) {
            callbackFailed("context propagator scope close", null, t);
        }
    }

    /**
     * Counts and logs (rate-limited) a failure of user code or a plug-in that the runtime contained.
     *
     * @param what which callback failed
     * @param actorId the actor concerned, or null
     * @param failure what it threw
     */
    void callbackFailed(String what, TbActorId actorId, Throwable failure) {
        callbackFailures.increment();
        long heldBack = callbackFailureWarning.tryAcquire();
        if (heldBack >= 0) {
            log.warn("[{}] {} threw; the runtime went on without it ({} more such failures since the last report)",
                    actorId, what, heldBack, failure);
        }
    }

    int getActorThroughput() {
        return settings.getActorThroughput();
    }

    int getMaxActorInitAttempts() {
        return settings.getMaxActorInitAttempts();
    }
}
