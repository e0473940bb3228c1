package io.tbactors.spring.autoconfigure;

import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.Dispatchers;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;

/**
 * Turns bound and validated {@link TbActorsProperties} into settings and a system with its dispatchers. The values
 * were checked by the properties' own validator when they were bound, so nothing here reports a bad value.
 */
final class TbActorSystemFactory {

    private TbActorSystemFactory() {
    }

    static TbActorSystemSettings settings(TbActorsProperties properties, @Nullable TbMessageContextPropagator contextPropagator) {
        TbActorsProperties.Restart restart = properties.getRestart();
        return TbActorSystemSettings.builder()
                .actorThroughput(properties.getThroughput())
                .schedulerPoolSize(properties.getSchedulerPoolSize())
                .maxActorInitAttempts(properties.getMaxActorInitAttempts())
                .shutdownTimeout(properties.getShutdownTimeout())
                .recordWaitTime(properties.getMetrics().isWaitTime())
                .contextPropagator(contextPropagator)
                .slowProcessingThreshold(properties.getSlowProcessingThreshold())
                .maxRestarts(restart.getMaxRestarts())
                .restartWindow(restart.getWindow())
                .restartBackoff(restart.getBackoff())
                .passivationTick(properties.getPassivationTick())
                .rateLimitedLogInterval(properties.getDeadLetters().getLogInterval())
                .build();
    }

    /** Creates the system and its configured dispatchers; if one cannot be created the half-built system is stopped. */
    static DefaultTbActorSystem create(TbActorSystemSettings settings, TbActorsProperties properties,
                                       TbActorSystemListener listener, Environment environment) {
        DefaultTbActorSystem system = new DefaultTbActorSystem(settings, listener);
        try {
            for (Map.Entry<String, TbActorsProperties.Dispatcher> entry : properties.effectiveDispatchers().entrySet()) {
                TbActorsProperties.Dispatcher dispatcher = entry.getValue();
                system.createDispatcher(entry.getKey(), resolveKind(dispatcher.getType(), environment),
                        effectivePoolSize(dispatcher.getPoolSize()));
                TbMailboxBound bound = mailboxBound(dispatcher);
                if (bound != null) {
                    system.setMailboxBound(entry.getKey(), bound);
                }
                system.setPaddedMailboxes(entry.getKey(), dispatcher.isPaddedMailboxes());
            }
        } catch (RuntimeException e) {
            system.stop(Duration.ofSeconds(1));
            throw e;
        }
        return system;
    }

    static DispatcherKind resolveKind(TbActorsProperties.@Nullable DispatcherType type, Environment environment) {
        return switch (type == null ? TbActorsProperties.DispatcherType.AUTO : type) {
            case FORK_JOIN -> DispatcherKind.FORK_JOIN;
            case SINGLE -> DispatcherKind.SINGLE;
            case VIRTUAL -> DispatcherKind.VIRTUAL;
            case AUTO -> Dispatchers.virtualThreadsAvailable() && Threading.VIRTUAL.isActive(environment)
                    ? DispatcherKind.VIRTUAL : DispatcherKind.FORK_JOIN;
        };
    }

    private static @Nullable TbMailboxBound mailboxBound(TbActorsProperties.Dispatcher dispatcher) {
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
}
