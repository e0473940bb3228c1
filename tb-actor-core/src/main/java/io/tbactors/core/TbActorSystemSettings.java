package io.tbactors.core;

import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Settings of a {@link DefaultTbActorSystem}. The three-argument constructor matches ThingsBoard's; further
 * settings come through {@link #builder()}. Every value is checked when the settings are built.
 */
public final class TbActorSystemSettings {

    /** Default time {@link DefaultTbActorSystem#stop()} waits for actors to be destroyed and threads to end. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

    private final int actorThroughput;
    private final int schedulerPoolSize;
    private final int maxActorInitAttempts;
    private final Duration shutdownTimeout;
    private final boolean recordWaitTime;
    private final boolean countMailboxDepth;
    private final TbMessageContextPropagator contextPropagator;
    private final Duration slowProcessingThreshold;
    private final int maxRestarts;
    private final Duration restartWindow;
    private final Duration restartBackoff;
    private final Duration passivationTick;
    private final Duration rateLimitedLogInterval;
    private final Supplier<ScheduledExecutorService> schedulerFactory;
    private final LongSupplier nanoClock;
    private final TbMessageFateObserver messageFateObserver;

    /**
     * @param actorThroughput messages an actor processes in one turn before its thread moves on; at least 1
     * @param schedulerPoolSize threads of the scheduler; at least 1
     * @param maxActorInitAttempts attempts to initialise an actor before it gives up (it then stays registered with
     *                             {@code INIT_FAILED}); 0 for unlimited, as in ThingsBoard
     */
    public TbActorSystemSettings(int actorThroughput, int schedulerPoolSize, int maxActorInitAttempts) {
        this(builder().actorThroughput(actorThroughput).schedulerPoolSize(schedulerPoolSize)
                .maxActorInitAttempts(maxActorInitAttempts));
    }

    private TbActorSystemSettings(Builder b) {
        requireAtLeastOne("actorThroughput", b.actorThroughput);
        requireAtLeastOne("schedulerPoolSize", b.schedulerPoolSize);
        if (b.maxActorInitAttempts < 0) {
            throw new IllegalArgumentException("maxActorInitAttempts must be >= 0 (0 = unlimited, as in ThingsBoard), got "
                    + b.maxActorInitAttempts);
        }
        if (b.maxRestarts < 0) {
            throw new IllegalArgumentException("maxRestarts must be >= 0, got " + b.maxRestarts);
        }
        this.actorThroughput = b.actorThroughput;
        this.schedulerPoolSize = b.schedulerPoolSize;
        this.maxActorInitAttempts = b.maxActorInitAttempts;
        this.shutdownTimeout = requirePositive("shutdownTimeout", b.shutdownTimeout);
        this.recordWaitTime = b.recordWaitTime;
        this.countMailboxDepth = b.countMailboxDepth;
        this.contextPropagator = b.contextPropagator;
        this.slowProcessingThreshold = b.slowProcessingThreshold == null ? null
                : requirePositive("slowProcessingThreshold", b.slowProcessingThreshold);
        this.maxRestarts = b.maxRestarts;
        this.restartWindow = requirePositive("restartWindow", b.restartWindow);
        this.restartBackoff = requireNotNegative("restartBackoff", b.restartBackoff);
        this.schedulerFactory = b.schedulerFactory;
        this.nanoClock = b.nanoClock;
        this.messageFateObserver = b.messageFateObserver;
        this.passivationTick = requirePositive("passivationTick", b.passivationTick);
        this.rateLimitedLogInterval = requirePositive("rateLimitedLogInterval", b.rateLimitedLogInterval);
    }

    private static void requireAtLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, got " + value);
        }
    }

    private static Duration requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
        return value;
    }

    private static Duration requireNotNegative(String name, Duration value) {
        Objects.requireNonNull(value, name + " must not be null");
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + value);
        }
        return value;
    }

    /** @return a builder with ThingsBoard's defaults: throughput 5, one scheduler thread, 10 init attempts */
    public static Builder builder() {
        return new Builder();
    }

    /** @return messages an actor processes in one turn */
    public int getActorThroughput() {
        return actorThroughput;
    }

    /** @return threads of the scheduler */
    public int getSchedulerPoolSize() {
        return schedulerPoolSize;
    }

    /** @return attempts to initialise an actor before it is stopped */
    public int getMaxActorInitAttempts() {
        return maxActorInitAttempts;
    }

    /** @return how long a system stop waits for actors to be destroyed and threads to end */
    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    /**
     * @return whether each message records the time it was queued, so observers see how long it waited;
     *     costs one small object per message
     */
    public boolean isRecordWaitTime() {
        return recordWaitTime;
    }

    /**
     * @return whether every mailbox counts its depth, so depth reads are O(1) (one atomic add per message on the
     *     sender's side); bounded mailboxes count regardless, the others are walked when asked
     */
    public boolean isCountMailboxDepth() {
        return countMailboxDepth;
    }

    /** @return what carries a context from the telling thread to the processing one, or null for nothing */
    public TbMessageContextPropagator getContextPropagator() {
        return contextPropagator;
    }

    /** @return a {@code process} call longer than this is logged (rate-limited) and counted; null when not checked */
    public Duration getSlowProcessingThreshold() {
        return slowProcessingThreshold;
    }

    /** @return restarts allowed within {@link #getRestartWindow()} before a restarting actor is stopped instead */
    public int getMaxRestarts() {
        return maxRestarts;
    }

    /** @return the window in which restarts are counted */
    public Duration getRestartWindow() {
        return restartWindow;
    }

    /** @return delay before the first restart within a window; each further one waits twice as long */
    public Duration getRestartBackoff() {
        return restartBackoff;
    }

    /** @return how often idle actors are looked for; an idle actor stops within its timeout plus one tick */
    public Duration getPassivationTick() {
        return passivationTick;
    }

    /**
     * @return at most one line per this interval for each rate-limited warning (dead letters, slow processing);
     *     the others are counted and summed in the next line
     */
    public Duration getRateLimitedLogInterval() {
        return rateLimitedLogInterval;
    }

    /** @return makes the system's scheduler in place of its own thread pool, or null (the default) for the pool */
    public Supplier<ScheduledExecutorService> getSchedulerFactory() {
        return schedulerFactory;
    }

    /**
     * @return the clock idle passivation and the fork-join dispatchers' fairness measure with, or null (the default) for
     *     {@link System#nanoTime()}
     */
    public LongSupplier getNanoClock() {
        return nanoClock;
    }

    /** @return what sees each message's fate (for tests), or null (the default) for nothing */
    public TbMessageFateObserver getMessageFateObserver() {
        return messageFateObserver;
    }

    @Override
    public String toString() {
        return "TbActorSystemSettings{actorThroughput=" + actorThroughput + ", schedulerPoolSize=" + schedulerPoolSize
                + ", maxActorInitAttempts=" + maxActorInitAttempts + ", shutdownTimeout=" + shutdownTimeout
                + ", recordWaitTime=" + recordWaitTime + ", countMailboxDepth=" + countMailboxDepth + '}';
    }

    /** Builds {@link TbActorSystemSettings}. */
    public static final class Builder {
        private int actorThroughput = 5;
        private int schedulerPoolSize = 1;
        private int maxActorInitAttempts = 10;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private boolean recordWaitTime;
        private boolean countMailboxDepth;
        private TbMessageContextPropagator contextPropagator;
        private Duration slowProcessingThreshold;
        private int maxRestarts = 3;
        private Duration restartWindow = Duration.ofMinutes(1);
        private Duration restartBackoff = Duration.ofMillis(100);
        private Duration passivationTick = Duration.ofSeconds(1);
        private Duration rateLimitedLogInterval = Duration.ofSeconds(10);
        private Supplier<ScheduledExecutorService> schedulerFactory;
        private LongSupplier nanoClock;
        private TbMessageFateObserver messageFateObserver;

        private Builder() {
        }

        /** @param value log and count {@code process} calls longer than this; null (the default) turns it off @return this */
        public Builder slowProcessingThreshold(Duration value) {
            this.slowProcessingThreshold = value;
            return this;
        }

        /** @param value restarts allowed within the restart window, at least 0 (default 3) @return this */
        public Builder maxRestarts(int value) {
            this.maxRestarts = value;
            return this;
        }

        /** @param value window in which restarts are counted, positive (default 1 minute) @return this */
        public Builder restartWindow(Duration value) {
            this.restartWindow = value;
            return this;
        }

        /** @param value delay before the first restart in a window, doubled for each further one (default 100 ms) @return this */
        public Builder restartBackoff(Duration value) {
            this.restartBackoff = value;
            return this;
        }

        /** @param value how often idle actors are looked for, positive (default 1 second) @return this */
        public Builder passivationTick(Duration value) {
            this.passivationTick = value;
            return this;
        }

        /** @param value at most one line per interval for each rate-limited warning, positive (default 10 seconds) @return this */
        public Builder rateLimitedLogInterval(Duration value) {
            this.rateLimitedLogInterval = value;
            return this;
        }

        /** @param value messages per turn, at least 1 @return this */
        public Builder actorThroughput(int value) {
            this.actorThroughput = value;
            return this;
        }

        /** @param value scheduler threads, at least 1 @return this */
        public Builder schedulerPoolSize(int value) {
            this.schedulerPoolSize = value;
            return this;
        }

        /** @param value init attempts, at least 1 @return this */
        public Builder maxActorInitAttempts(int value) {
            this.maxActorInitAttempts = value;
            return this;
        }

        /** @param value bound of a system stop, positive @return this */
        public Builder shutdownTimeout(Duration value) {
            this.shutdownTimeout = value;
            return this;
        }

        /** @param value whether to record each message's queueing time @return this */
        public Builder recordWaitTime(boolean value) {
            this.recordWaitTime = value;
            return this;
        }

        /**
         * @param value whether every mailbox keeps a depth counter (for depth metrics read often); off by default:
         *              only bounded mailboxes count, the depth of the others is found by walking their queues
         * @return this
         */
        public Builder countMailboxDepth(boolean value) {
            this.countMailboxDepth = value;
            return this;
        }

        /**
         * @param value carries a context (a trace, say) from each tell to the message's processing; null for none
         * @return this
         */
        public Builder contextPropagator(TbMessageContextPropagator value) {
            this.contextPropagator = value;
            return this;
        }

        /**
         * @param value makes the scheduler that runs timers, init retries, restart backoff, ask timeouts and passivation
         *     ticks, such as a test's manually advanced clock; the system shuts it down when it stops. Null (the
         *     default) gives a pool of {@code schedulerPoolSize} threads
         * @return this
         */
        public Builder scheduler(Supplier<ScheduledExecutorService> value) {
            this.schedulerFactory = value;
            return this;
        }

        /**
         * @param value the clock, in nanoseconds, that idle passivation measures with, and that paces how often a
         *     fork-join worker busy with its own actors lets the turns submitted from outside the pool in, such as a
         *     test's manual clock (give the scheduler the same clock); null (the default) for {@link System#nanoTime()}
         * @return this
         */
        public Builder nanoClock(LongSupplier value) {
            this.nanoClock = value;
            return this;
        }

        /**
         * @param value sees each message told to a mailbox and how it ended (processed, told why not, handed back,
         *     withdrawn), such as a test's check that nothing was lost; null (the default) costs one null check per
         *     message
         * @return this
         */
        public Builder messageFateObserver(TbMessageFateObserver value) {
            this.messageFateObserver = value;
            return this;
        }

        /** @return validated settings @throws IllegalArgumentException naming the bad value and what is allowed */
        public TbActorSystemSettings build() {
            return new TbActorSystemSettings(this);
        }
    }
}
