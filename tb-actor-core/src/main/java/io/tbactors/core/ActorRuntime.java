package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a mailbox sees of its actor system: the settings it runs with, the listener, the scheduler, the idle wheel,
 * context propagation, the counters of what happened, and the registries. Mailboxes talk to this narrow view only,
 * never to {@link DefaultTbActorSystem}, which is the public face put together from the same parts.
 */
final class ActorRuntime {

    private static final Logger log = LoggerFactory.getLogger(ActorRuntime.class);

    static final int RUNNING = 0;
    static final int STOPPING = 1;
    static final int STOPPED = 2;

    final TbActorSystemSettings settings;
    /** Messages per turn. */
    final int throughput;
    /** Init attempts before an actor gives up; 0 for unlimited. */
    final int maxInitAttempts;
    /** {@code process} calls longer than this are slow; -1 when not checked. */
    final long slowProcessingNanos;
    final boolean recordWaitTime;
    final boolean countMailboxDepth;
    /** Null when nobody listens, so the hot path tests one reference. */
    final TbActorSystemListener listener;
    /** Null unless a test observes each message's fate, so the hot path tests one reference. */
    final TbMessageFateObserver fates;
    final ScheduledExecutorService scheduler;
    final IdleWheel idleWheel;
    final DeadLetters deadLetters;
    final FailureReports failures;
    final DispatcherRegistry dispatchers;
    final ActorRegistry actors;

    private final TbMessageContextPropagator contextPropagator;
    private final LongSupplier nanoClock;
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final LongAdder slowProcessing = new LongAdder();
    private final LongAdder restarts = new LongAdder();
    private final LongAdder tryTellRefused = new LongAdder();
    private final LongAdder passivated = new LongAdder();
    private final LongAdder callbackFailures = new LongAdder();
    private final RateLimitedWarning slowProcessingWarning;
    private final RateLimitedWarning callbackFailureWarning;

    ActorRuntime(TbActorSystemSettings settings, TbActorSystemListener listener) {
        this.settings = settings;
        this.throughput = settings.getActorThroughput();
        this.maxInitAttempts = settings.getMaxActorInitAttempts();
        this.slowProcessingNanos = settings.getSlowProcessingThreshold() == null ? -1 : settings.getSlowProcessingThreshold().toNanos();
        this.recordWaitTime = settings.isRecordWaitTime();
        this.countMailboxDepth = settings.isCountMailboxDepth();
        this.listener = listener == TbActorSystemListener.NOOP ? null : new ContainedListener(listener, this);
        this.fates = settings.getMessageFateObserver() == null ? null
                : new ContainedFateObserver(settings.getMessageFateObserver(), this);
        this.contextPropagator = settings.getContextPropagator();
        this.scheduler = settings.getSchedulerFactory() != null ? settings.getSchedulerFactory().get()
                : new SafeScheduledExecutor(settings.getSchedulerPoolSize(), "tb-actors-scheduler");
        this.nanoClock = settings.getNanoClock() != null ? settings.getNanoClock() : System::nanoTime;
        long logInterval = settings.getRateLimitedLogInterval().toNanos();
        this.slowProcessingWarning = new RateLimitedWarning(logInterval);
        this.callbackFailureWarning = new RateLimitedWarning(logInterval);
        this.idleWheel = new IdleWheel(this, settings.getPassivationTick().toNanos());
        this.deadLetters = new DeadLetters(this, logInterval);
        this.failures = new FailureReports(this, logInterval);
        this.dispatchers = new DispatcherRegistry(this);
        this.actors = new ActorRegistry(this);
    }

    /**
     * @return now on the clock idle passivation and the fork-join dispatchers' fairness measure with (a test may supply
     *     its own)
     */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    // ---------------------------------------------------------------- running state

    boolean isRunning() {
        return state.get() == RUNNING;
    }

    /** @return whether this call moved the system from running to stopping */
    boolean beginStop() {
        return state.compareAndSet(RUNNING, STOPPING);
    }

    void stopped() {
        state.set(STOPPED);
    }

    void ensureRunning(String action) {
        if (!isRunning()) {
            throw new IllegalStateException("Cannot " + action + ": the actor system is stopped");
        }
    }

    // ---------------------------------------------------------------- context propagation

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

    // ---------------------------------------------------------------- events from mailboxes

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

    void slowProcessing(TbActorMailbox mailbox, Object msg, long tookNanos) {
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

    /** Called by the idle wheel for an actor idle past its timeout. */
    void passivate(TbActorMailbox mailbox) {
        if (ActorStop.stop(mailbox, io.tbactors.api.TbActorStopReason.IDLE, null)) {
            passivated.increment();
        }
    }

    // ---------------------------------------------------------------- counters

    long slowProcessingCount() {
        return slowProcessing.sum();
    }

    long restartCount() {
        return restarts.sum();
    }

    long tryTellRefusedCount() {
        return tryTellRefused.sum();
    }

    long passivatedCount() {
        return passivated.sum();
    }

    long callbackFailureCount() {
        return callbackFailures.sum();
    }
}
