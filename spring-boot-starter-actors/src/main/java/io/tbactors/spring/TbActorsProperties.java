package io.tbactors.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the actor system, under {@code tb.actors}. The defaults give a working system with no
 * configuration at all: one dispatcher named {@code default} with half the cores.
 */
@ConfigurationProperties(prefix = TbActorsProperties.PREFIX)
public class TbActorsProperties {

    /** Prefix of every property of the starter. */
    public static final String PREFIX = "tb.actors";

    /** Name of the dispatcher that always exists unless configured otherwise. */
    public static final String DEFAULT_DISPATCHER = "default";

    /** Whether to auto-configure the actor system. */
    private boolean enabled = true;

    /** Messages an actor processes in one turn before its dispatcher thread moves to another actor; at least 1. */
    private int throughput = 5;

    /** Threads of the scheduler that runs delayed and periodic work; at least 1. */
    private int schedulerPoolSize = 1;

    /**
     * Attempts to initialise an actor before it gives up: it stays registered and its messages are told INIT_FAILED
     * until it is stopped or re-initialised by an update; 0 for unlimited, as in ThingsBoard.
     */
    private int maxActorInitAttempts = 10;

    /** Longest time a shutdown waits for the mailboxes to drain, and then again for the actors to be destroyed. */
    private Duration shutdownTimeout = Duration.ofSeconds(10);

    /** Dispatcher of the root actor, when its declaration names none; must be a configured dispatcher. */
    private String rootDispatcher = DEFAULT_DISPATCHER;

    /** Processing time above which a message is logged (rate-limited) and counted as slow; unset turns it off. */
    private Duration slowProcessingThreshold;

    /**
     * Dispatchers by name, created when the application starts. A dispatcher named 'default' is added with
     * type 'auto' unless configured here.
     */
    private Map<String, Dispatcher> dispatchers = new LinkedHashMap<>();

    private final Restart restart = new Restart();

    private final Health health = new Health();

    private final Metrics metrics = new Metrics();

    private final Tracing tracing = new Tracing();

    private final DeadLetters deadLetters = new DeadLetters();

    /** How often idle actors (those that asked for passivation) are looked for. */
    private Duration passivationTick = Duration.ofSeconds(1);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getThroughput() {
        return throughput;
    }

    public void setThroughput(int throughput) {
        this.throughput = throughput;
    }

    public int getSchedulerPoolSize() {
        return schedulerPoolSize;
    }

    public void setSchedulerPoolSize(int schedulerPoolSize) {
        this.schedulerPoolSize = schedulerPoolSize;
    }

    public int getMaxActorInitAttempts() {
        return maxActorInitAttempts;
    }

    public void setMaxActorInitAttempts(int maxActorInitAttempts) {
        this.maxActorInitAttempts = maxActorInitAttempts;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public String getRootDispatcher() {
        return rootDispatcher;
    }

    public void setRootDispatcher(String rootDispatcher) {
        this.rootDispatcher = rootDispatcher;
    }

    public Duration getSlowProcessingThreshold() {
        return slowProcessingThreshold;
    }

    public void setSlowProcessingThreshold(Duration slowProcessingThreshold) {
        this.slowProcessingThreshold = slowProcessingThreshold;
    }

    public Restart getRestart() {
        return restart;
    }

    public Map<String, Dispatcher> getDispatchers() {
        return dispatchers;
    }

    public void setDispatchers(Map<String, Dispatcher> dispatchers) {
        this.dispatchers = dispatchers;
    }

    public Health getHealth() {
        return health;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public DeadLetters getDeadLetters() {
        return deadLetters;
    }

    public Duration getPassivationTick() {
        return passivationTick;
    }

    public void setPassivationTick(Duration passivationTick) {
        this.passivationTick = passivationTick;
    }

    public Tracing getTracing() {
        return tracing;
    }

    /** What a full bounded mailbox does with one more normal-priority message. */
    public enum OverflowPolicy {

        /** Refuse the new message: it is told MAILBOX_FULL, and tryTell returns false. */
        REJECT_NEWEST,

        /** Accept the new message and tell the oldest waiting one DROPPED_OLDEST. */
        DROP_OLDEST
    }

    /** How threads are provided to a dispatcher's actors. */
    public enum DispatcherType {

        /** Virtual threads when spring.threads.virtual.enabled is true on Java 21+, a fork-join pool otherwise. */
        AUTO,

        /** Work-stealing fork-join pool in FIFO mode; a pool of one thread is a plain single thread. */
        FORK_JOIN,

        /** One plain platform thread. */
        SINGLE,

        /** New virtual thread per actor turn; needs Java 21 or newer. */
        VIRTUAL
    }

    /** One dispatcher: a pool of threads that run actor turns. */
    public static class Dispatcher {

        /** Kind of thread pool: fork-join, single, virtual, or auto. */
        private DispatcherType type = DispatcherType.AUTO;

        /** Threads of a fork-join pool; 0 means half the available processors, at least 1. */
        private int poolSize;

        /** Normal-priority messages each actor of this dispatcher may hold; 0 means unbounded. */
        private int mailboxBound;

        /** What a full mailbox does with one more message: reject-newest or drop-oldest. */
        private OverflowPolicy overflowPolicy = OverflowPolicy.REJECT_NEWEST;

        public DispatcherType getType() {
            return type;
        }

        public void setType(DispatcherType type) {
            this.type = type;
        }

        public int getPoolSize() {
            return poolSize;
        }

        public void setPoolSize(int poolSize) {
            this.poolSize = poolSize;
        }

        public int getMailboxBound() {
            return mailboxBound;
        }

        public void setMailboxBound(int mailboxBound) {
            this.mailboxBound = mailboxBound;
        }

        public OverflowPolicy getOverflowPolicy() {
            return overflowPolicy;
        }

        public void setOverflowPolicy(OverflowPolicy overflowPolicy) {
            this.overflowPolicy = overflowPolicy;
        }
    }

    /** Restarts of actors whose failure strategy is restart. */
    public static class Restart {

        /** Restarts allowed within the window before the actor is stopped instead; at least 0. */
        private int maxRestarts = 3;

        /** Window in which restarts are counted. */
        private Duration window = Duration.ofMinutes(1);

        /** Delay before the first restart in a window, doubled for each further one. */
        private Duration backoff = Duration.ofMillis(100);

        public int getMaxRestarts() {
            return maxRestarts;
        }

        public void setMaxRestarts(int maxRestarts) {
            this.maxRestarts = maxRestarts;
        }

        public Duration getWindow() {
            return window;
        }

        public void setWindow(Duration window) {
            this.window = window;
        }

        public Duration getBackoff() {
            return backoff;
        }

        public void setBackoff(Duration backoff) {
            this.backoff = backoff;
        }
    }

    /** Health indicator settings. */
    public static class Health {

        /** Messages waiting in all mailboxes above which the 'actors' health component reports WARNING. */
        private long backlogWarningThreshold = 10_000;

        public long getBacklogWarningThreshold() {
            return backlogWarningThreshold;
        }

        public void setBacklogWarningThreshold(long backlogWarningThreshold) {
            this.backlogWarningThreshold = backlogWarningThreshold;
        }
    }

    /** Metrics settings. */
    public static class Metrics {

        /** Whether to record how long each message waited in its mailbox; costs one small object per message. */
        private boolean waitTime;

        public boolean isWaitTime() {
            return waitTime;
        }

        public void setWaitTime(boolean waitTime) {
            this.waitTime = waitTime;
        }
    }

    /** Trace-context propagation settings. */
    public static class Tracing {

        /**
         * Whether to carry the caller's context (trace, MDC, and other registered thread locals) across a tell to
         * the actor's processing; costs a context capture per message. Needs io.micrometer:context-propagation.
         */
        private boolean enabled;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Dead-letter settings: messages to unknown or stopped actors, or refused by full mailboxes. */
    public static class DeadLetters {

        /** Whether each dead letter is published as a TbDeadLetterEvent application event. */
        private boolean publishEvents = true;

        /** At most one log line per this interval for dead letters and for slow processing; the rest are counted. */
        private Duration logInterval = Duration.ofSeconds(10);

        public boolean isPublishEvents() {
            return publishEvents;
        }

        public void setPublishEvents(boolean publishEvents) {
            this.publishEvents = publishEvents;
        }

        public Duration getLogInterval() {
            return logInterval;
        }

        public void setLogInterval(Duration logInterval) {
            this.logInterval = logInterval;
        }
    }
}
