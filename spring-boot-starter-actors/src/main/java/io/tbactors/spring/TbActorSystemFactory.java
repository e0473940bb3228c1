package io.tbactors.spring;

import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.Dispatchers;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;

/**
 * Turns {@link TbActorsProperties} into settings and dispatchers, checking every value first so that a bad one
 * fails start-up with a message naming the property and what is allowed.
 */
final class TbActorSystemFactory {

    static final String AT_LEAST_ONE = "an integer of at least 1";

    private TbActorSystemFactory() {
    }

    static TbActorSystemSettings settings(TbActorsProperties properties, TbMessageContextPropagator contextPropagator) {
        requireAtLeastOne("throughput", properties.getThroughput());
        requireAtLeastOne("scheduler-pool-size", properties.getSchedulerPoolSize());
        if (properties.getMaxActorInitAttempts() < 0) {
            throw new InvalidTbActorsPropertyException(property("max-actor-init-attempts"), properties.getMaxActorInitAttempts(),
                    "0 (unlimited, as in ThingsBoard) or more");
        }
        Duration timeout = requirePositive("shutdown-timeout", properties.getShutdownTimeout());
        Duration slow = properties.getSlowProcessingThreshold();
        if (slow != null) {
            requirePositive("slow-processing-threshold", slow);
        }
        TbActorsProperties.Restart restart = properties.getRestart();
        if (restart.getMaxRestarts() < 0) {
            throw new InvalidTbActorsPropertyException(property("restart.max-restarts"), restart.getMaxRestarts(),
                    "0 (never restart) or more");
        }
        requirePositive("restart.window", restart.getWindow());
        if (restart.getBackoff() == null || restart.getBackoff().isNegative()) {
            throw new InvalidTbActorsPropertyException(property("restart.backoff"), restart.getBackoff(),
                    "a duration of 0 or more, such as 100ms");
        }
        if (properties.getTracing().isEnabled() && contextPropagator == null) {
            throw new InvalidTbActorsPropertyException(property("tracing.enabled"), true,
                    "false unless io.micrometer:context-propagation is on the classpath (add it to enable tracing)");
        }
        return TbActorSystemSettings.builder()
                .actorThroughput(properties.getThroughput())
                .schedulerPoolSize(properties.getSchedulerPoolSize())
                .maxActorInitAttempts(properties.getMaxActorInitAttempts())
                .shutdownTimeout(timeout)
                .recordWaitTime(properties.getMetrics().isWaitTime())
                .contextPropagator(contextPropagator)
                .slowProcessingThreshold(slow)
                .maxRestarts(restart.getMaxRestarts())
                .restartWindow(restart.getWindow())
                .restartBackoff(restart.getBackoff())
                .passivationTick(requirePositive("passivation-tick", properties.getPassivationTick()))
                .rateLimitedLogInterval(requirePositive("dead-letters.log-interval", properties.getDeadLetters().getLogInterval()))
                .build();
    }

    /**
     * Creates the system and its configured dispatchers; on a bad dispatcher setting the half-built system is stopped.
     */
    static DefaultTbActorSystem create(TbActorSystemSettings settings, TbActorsProperties properties,
                                       TbActorSystemListener listener, Environment environment) {
        Map<String, TbActorsProperties.Dispatcher> dispatchers = effectiveDispatchers(properties);
        for (Map.Entry<String, TbActorsProperties.Dispatcher> entry : dispatchers.entrySet()) {
            resolveKind(entry.getKey(), entry.getValue(), environment);
            if (entry.getValue().getPoolSize() < 0) {
                throw new InvalidTbActorsPropertyException(dispatcherProperty(entry.getKey(), "pool-size"),
                        entry.getValue().getPoolSize(), "0 (half the available processors) or a positive number of threads");
            }
            if (entry.getValue().getMailboxBound() < 0) {
                throw new InvalidTbActorsPropertyException(dispatcherProperty(entry.getKey(), "mailbox-bound"),
                        entry.getValue().getMailboxBound(), "0 (unbounded) or a positive number of messages");
            }
        }
        String root = properties.getRootDispatcher();
        if (root == null || !dispatchers.containsKey(root)) {
            throw new InvalidTbActorsPropertyException(property("root-dispatcher"), root,
                    "the name of a configured dispatcher, one of " + dispatchers.keySet());
        }
        DefaultTbActorSystem system = new DefaultTbActorSystem(settings, listener);
        try {
            for (Map.Entry<String, TbActorsProperties.Dispatcher> entry : dispatchers.entrySet()) {
                TbActorsProperties.Dispatcher dispatcher = entry.getValue();
                system.createDispatcher(entry.getKey(), resolveKind(entry.getKey(), dispatcher, environment),
                        effectivePoolSize(dispatcher.getPoolSize()));
                TbMailboxBound bound = mailboxBound(dispatcher);
                if (bound != null) {
                    system.setMailboxBound(entry.getKey(), bound);
                }
            }
        } catch (RuntimeException e) {
            system.stop(Duration.ofSeconds(1));
            throw e;
        }
        return system;
    }

    /** @return the configured dispatchers, after the built-in {@code default} one when it is not configured */
    static Map<String, TbActorsProperties.Dispatcher> effectiveDispatchers(TbActorsProperties properties) {
        Map<String, TbActorsProperties.Dispatcher> effective = new LinkedHashMap<>();
        if (!properties.getDispatchers().containsKey(TbActorsProperties.DEFAULT_DISPATCHER)) {
            effective.put(TbActorsProperties.DEFAULT_DISPATCHER, new TbActorsProperties.Dispatcher());
        }
        effective.putAll(properties.getDispatchers());
        return effective;
    }

    static DispatcherKind resolveKind(String name, TbActorsProperties.Dispatcher dispatcher, Environment environment) {
        TbActorsProperties.DispatcherType type = dispatcher.getType();
        if (type == null) {
            type = TbActorsProperties.DispatcherType.AUTO;
        }
        return switch (type) {
            case FORK_JOIN -> DispatcherKind.FORK_JOIN;
            case SINGLE -> DispatcherKind.SINGLE;
            case VIRTUAL -> {
                if (!Dispatchers.virtualThreadsAvailable()) {
                    throw new InvalidTbActorsPropertyException(dispatcherProperty(name, "type"), "virtual",
                            "fork-join, single or auto on this JVM (Java " + Runtime.version().feature()
                                    + "); virtual needs Java 21 or newer");
                }
                yield DispatcherKind.VIRTUAL;
            }
            case AUTO -> Dispatchers.virtualThreadsAvailable() && Threading.VIRTUAL.isActive(environment)
                    ? DispatcherKind.VIRTUAL : DispatcherKind.FORK_JOIN;
        };
    }

    private static TbMailboxBound mailboxBound(TbActorsProperties.Dispatcher dispatcher) {
        if (dispatcher.getMailboxBound() == 0) {
            return null;
        }
        return dispatcher.getOverflowPolicy() == TbActorsProperties.OverflowPolicy.DROP_OLDEST
                ? TbMailboxBound.dropOldest(dispatcher.getMailboxBound())
                : TbMailboxBound.rejectNewest(dispatcher.getMailboxBound());
    }

    static int effectivePoolSize(int configured) {
        return configured > 0 ? configured : Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    private static Duration requirePositive(String name, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new InvalidTbActorsPropertyException(property(name), value, "a positive duration, such as 10s");
        }
        return value;
    }

    private static void requireAtLeastOne(String name, int value) {
        if (value < 1) {
            throw new InvalidTbActorsPropertyException(property(name), value, AT_LEAST_ONE);
        }
    }

    private static String property(String name) {
        return TbActorsProperties.PREFIX + "." + name;
    }

    private static String dispatcherProperty(String dispatcher, String name) {
        return TbActorsProperties.PREFIX + ".dispatchers." + dispatcher + "." + name;
    }
}
