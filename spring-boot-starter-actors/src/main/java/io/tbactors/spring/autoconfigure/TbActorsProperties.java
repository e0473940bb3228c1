package io.tbactors.spring.autoconfigure;

import io.tbactors.core.dispatch.Dispatchers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.ClassUtils;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration of the actor system, under {@code tb.actors}. The defaults give a working system with no
 * configuration at all: one dispatcher named {@code default} with half the cores.
 *
 * <p>The class validates itself: Spring Boot's binder calls {@link #validate} once the values are bound, and a bad
 * value fails start-up with Boot's own report, which names the property, the value, where it was set (file and line)
 * and what is allowed.
 */
@Getter
@Setter
@ConfigurationProperties(prefix = TbActorsProperties.PREFIX)
public class TbActorsProperties implements Validator {

    /** Prefix of every property of the starter. */
    public static final String PREFIX = "tb.actors";

    /** Name of the dispatcher that always exists unless configured otherwise. */
    public static final String DEFAULT_DISPATCHER = "default";

    private static final String CONTEXT_PROPAGATION = "io.micrometer.context.ContextSnapshotFactory";

    private static final String INVALID = "tb.actors.invalid";

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
    private @Nullable Duration slowProcessingThreshold;

    /**
     * Dispatchers by name, created when the application starts. A dispatcher named 'default' is added with
     * type 'auto' unless configured here.
     */
    private Map<String, Dispatcher> dispatchers = new LinkedHashMap<>();

    /** How often idle actors (those that asked for passivation) are looked for. */
    private Duration passivationTick = Duration.ofSeconds(1);

    private final Restart restart = new Restart();

    private final Health health = new Health();

    private final Metrics metrics = new Metrics();

    private final Tracing tracing = new Tracing();

    private final DeadLetters deadLetters = new DeadLetters();

    /** @return the configured dispatchers, after the built-in {@code default} one when it is not configured */
    public Map<String, Dispatcher> effectiveDispatchers() {
        Map<String, Dispatcher> effective = new LinkedHashMap<>();
        if (!dispatchers.containsKey(DEFAULT_DISPATCHER)) {
            effective.put(DEFAULT_DISPATCHER, new Dispatcher());
        }
        effective.putAll(dispatchers);
        return effective;
    }

    @Override
    public boolean supports(Class<?> type) {
        return type == TbActorsProperties.class || type == Dispatcher.class || type == Restart.class
                || type == DeadLetters.class || type == Tracing.class;
    }

    /**
     * Checks the values once they are bound. Spring Boot's binder calls this for these properties and for each nested
     * group on its own, so that each rejected field is matched to the property it was bound from and reported with
     * where that value was set.
     */
    @Override
    public void validate(Object target, Errors errors) {
        if (target instanceof TbActorsProperties p) {
            atLeast(errors, "throughput", p.throughput, 1, "an integer of at least 1");
            atLeast(errors, "schedulerPoolSize", p.schedulerPoolSize, 1, "an integer of at least 1");
            atLeast(errors, "maxActorInitAttempts", p.maxActorInitAttempts, 0, "0 (unlimited, as in ThingsBoard) or more");
            positive(errors, "shutdownTimeout", p.shutdownTimeout);
            if (p.slowProcessingThreshold != null) {
                positive(errors, "slowProcessingThreshold", p.slowProcessingThreshold);
            }
            positive(errors, "passivationTick", p.passivationTick);
            Map<String, Dispatcher> effective = p.effectiveDispatchers();
            if (p.rootDispatcher == null || !effective.containsKey(p.rootDispatcher)) {
                errors.rejectValue("rootDispatcher", INVALID, "allowed is the name of a configured dispatcher, one of "
                        + effective.keySet());
            }
        } else if (target instanceof Dispatcher dispatcher) {
            if (dispatcher.type == DispatcherType.VIRTUAL && !Dispatchers.virtualThreadsAvailable()) {
                errors.rejectValue("type", INVALID, "allowed is fork-join, single or auto on this JVM (Java "
                        + Runtime.version().feature() + "); virtual needs Java 21 or newer");
            }
            atLeast(errors, "poolSize", dispatcher.poolSize, 0, "0 (half the available processors) or a positive number of threads");
            atLeast(errors, "mailboxBound", dispatcher.mailboxBound, 0, "0 (unbounded) or a positive number of messages");
        } else if (target instanceof Restart restart) {
            atLeast(errors, "maxRestarts", restart.maxRestarts, 0, "0 (never restart) or more");
            positive(errors, "window", restart.window);
            if (restart.backoff == null || restart.backoff.isNegative()) {
                errors.rejectValue("backoff", INVALID, "allowed is a duration of 0 or more, such as 100ms");
            }
        } else if (target instanceof DeadLetters deadLetters) {
            positive(errors, "logInterval", deadLetters.logInterval);
        } else if (target instanceof Tracing tracing && tracing.enabled && !ClassUtils.isPresent(CONTEXT_PROPAGATION, null)) {
            errors.rejectValue("enabled", INVALID,
                    "allowed is false unless io.micrometer:context-propagation is on the classpath (add it to enable tracing)");
        }
    }

    private static void atLeast(Errors errors, String field, int value, int minimum, String allowed) {
        if (value < minimum) {
            errors.rejectValue(field, INVALID, "allowed is " + allowed);
        }
    }

    private static void positive(Errors errors, String field, @Nullable Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            errors.rejectValue(field, INVALID, "allowed is a positive duration, such as 10s or 500ms");
        }
    }

    /** What a full bounded mailbox does with one more normal-priority message. */
    public enum OverflowPolicy {

        /** Refuse the new message: it is told MAILBOX_FULL, and tryTell returns false. */
        REJECT_NEWEST,

        /** Accept the new message and tell the oldest waiting one DROPPED_OLDEST. */
        DROP_OLDEST;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
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
        VIRTUAL;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** One dispatcher: a pool of threads that run actor turns. */
    @Getter
    @Setter
    public static class Dispatcher {

        /** Kind of thread pool: fork-join, single, virtual, or auto. */
        private DispatcherType type = DispatcherType.AUTO;

        /** Threads of a fork-join pool; 0 means half the available processors, at least 1. */
        private int poolSize;

        /** Normal-priority messages each actor of this dispatcher may hold; 0 means unbounded. */
        private int mailboxBound;

        /** What a full mailbox does with one more message: reject-newest or drop-oldest. */
        private OverflowPolicy overflowPolicy = OverflowPolicy.REJECT_NEWEST;

        /**
         * Whether this dispatcher's actors get the padded mailbox: the ends of its queue on cache lines of their own,
         * 1.6x to 2.9x the throughput in the benchmark for a few actors fed by other threads, slower where actors are
         * many, about 200 bytes more per actor.
         */
        private boolean paddedMailboxes;
    }

    /** Restarts of actors whose failure strategy is restart. */
    @Getter
    @Setter
    public static class Restart {

        /** Restarts allowed within the window before the actor is stopped instead; at least 0. */
        private int maxRestarts = 3;

        /** Window in which restarts are counted. */
        private Duration window = Duration.ofMinutes(1);

        /** Delay before the first restart in a window, doubled for each further one. */
        private Duration backoff = Duration.ofMillis(100);
    }

    /** Health indicator settings. */
    @Getter
    @Setter
    public static class Health {

        /** Messages waiting in all mailboxes above which the 'actors' health component reports WARNING. */
        private long backlogWarningThreshold = 10_000;
    }

    /** Metrics settings. */
    @Getter
    @Setter
    public static class Metrics {

        /** Whether to record how long each message waited in its mailbox; costs one small object per message. */
        private boolean waitTime;
    }

    /** Trace-context propagation settings. */
    @Getter
    @Setter
    public static class Tracing {

        /**
         * Whether to carry the caller's context (trace, MDC, and other registered thread locals) across a tell to
         * the actor's processing; costs a context capture per message. Needs io.micrometer:context-propagation.
         */
        private boolean enabled;
    }

    /** Dead-letter settings: messages to unknown or stopped actors, or refused by full mailboxes. */
    @Getter
    @Setter
    public static class DeadLetters {

        /** Whether each dead letter is published as a TbDeadLetterEvent application event. */
        private boolean publishEvents = true;

        /** At most one log line per this interval for dead letters and for slow processing; the rest are counted. */
        private Duration logInterval = Duration.ofSeconds(10);
    }
}
