package io.tbactors.core;

import io.tbactors.core.observe.TbMessageContextPropagator;
import java.time.Duration;
import java.util.Objects;

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
    private final TbMessageContextPropagator contextPropagator;

    /**
     * @param actorThroughput messages an actor processes in one turn before its thread moves on; at least 1
     * @param schedulerPoolSize threads of the scheduler; at least 1
     * @param maxActorInitAttempts attempts to initialise an actor before it is stopped; at least 1
     */
    public TbActorSystemSettings(int actorThroughput, int schedulerPoolSize, int maxActorInitAttempts) {
        this(actorThroughput, schedulerPoolSize, maxActorInitAttempts, DEFAULT_SHUTDOWN_TIMEOUT, false, null);
    }

    private TbActorSystemSettings(int actorThroughput, int schedulerPoolSize, int maxActorInitAttempts,
                                  Duration shutdownTimeout, boolean recordWaitTime,
                                  TbMessageContextPropagator contextPropagator) {
        requireAtLeastOne("actorThroughput", actorThroughput);
        requireAtLeastOne("schedulerPoolSize", schedulerPoolSize);
        requireAtLeastOne("maxActorInitAttempts", maxActorInitAttempts);
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout must not be null");
        if (shutdownTimeout.isNegative() || shutdownTimeout.isZero()) {
            throw new IllegalArgumentException("shutdownTimeout must be positive, got " + shutdownTimeout);
        }
        this.actorThroughput = actorThroughput;
        this.schedulerPoolSize = schedulerPoolSize;
        this.maxActorInitAttempts = maxActorInitAttempts;
        this.shutdownTimeout = shutdownTimeout;
        this.recordWaitTime = recordWaitTime;
        this.contextPropagator = contextPropagator;
    }

    private static void requireAtLeastOne(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, got " + value);
        }
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

    /** @return what carries a context from the telling thread to the processing one, or null for nothing */
    public TbMessageContextPropagator getContextPropagator() {
        return contextPropagator;
    }

    @Override
    public String toString() {
        return "TbActorSystemSettings{actorThroughput=" + actorThroughput + ", schedulerPoolSize=" + schedulerPoolSize
                + ", maxActorInitAttempts=" + maxActorInitAttempts + ", shutdownTimeout=" + shutdownTimeout
                + ", recordWaitTime=" + recordWaitTime + '}';
    }

    /** Builds {@link TbActorSystemSettings}. */
    public static final class Builder {
        private int actorThroughput = 5;
        private int schedulerPoolSize = 1;
        private int maxActorInitAttempts = 10;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private boolean recordWaitTime;
        private TbMessageContextPropagator contextPropagator;

        private Builder() {
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
         * @param value carries a context (a trace, say) from each tell to the message's processing; null for none
         * @return this
         */
        public Builder contextPropagator(TbMessageContextPropagator value) {
            this.contextPropagator = value;
            return this;
        }

        /** @return validated settings @throws IllegalArgumentException naming the bad value and what is allowed */
        public TbActorSystemSettings build() {
            return new TbActorSystemSettings(actorThroughput, schedulerPoolSize, maxActorInitAttempts, shutdownTimeout,
                    recordWaitTime, contextPropagator);
        }
    }
}
