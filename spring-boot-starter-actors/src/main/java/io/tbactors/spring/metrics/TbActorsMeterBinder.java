package io.tbactors.spring.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.ActorSystemContext;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Meters read from the actor system when a registry is scraped: each dispatcher's executor metrics, its mailbox
 * backlog and turns, and the messages told after shutdown began. The dispatcher pools are bound here rather than
 * exposed as {@code Executor} beans, which would make Spring Boot drop its own task executor.
 *
 * <p>The backlog of every dispatcher comes from one pass over the mailboxes, reused for a second so that a scrape
 * walks the actors once, not once per dispatcher.
 */
public class TbActorsMeterBinder implements MeterBinder {

    private static final long SNAPSHOT_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TbActorSystemIntrospection actorSystem;
    private final ActorSystemContext actorSystemContext;
    private Map<String, Long> backlogSnapshot = Map.of();
    private long snapshotTakenAt;
    private boolean snapshotTaken;

    /**
     * @param actorSystem the actor system whose dispatchers (those present when bound) are measured
     * @param actorSystemContext counts the messages refused during shutdown
     */
    public TbActorsMeterBinder(TbActorSystemIntrospection actorSystem, ActorSystemContext actorSystemContext) {
        this.actorSystem = actorSystem;
        this.actorSystemContext = actorSystemContext;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (DispatcherStats stats : actorSystem.getDispatcherStats()) {
            String name = stats.name();
            Tags tags = Tags.of("dispatcher", name);
            // Micrometer tags executor meters with the pool's name; a dispatcher tag beside it would repeat it
            actorSystem.getDispatcher(name).map(Dispatcher::getExecutor).ifPresent(executor ->
                    new ExecutorServiceMetrics(executor, name, TbActorsMeterNames.EXECUTOR_PREFIX, Tags.empty()).bindTo(registry));
            Gauge.builder(TbActorsMeterNames.MAILBOX_BACKLOG, this, binder -> binder.backlog(name))
                    .description("Messages waiting in the mailboxes of the dispatcher's actors")
                    .baseUnit(TbActorsMeterNames.UNIT_MESSAGES).tags(tags).register(registry);
            FunctionCounter.builder(TbActorsMeterNames.DISPATCHER_TURNS, actorSystem,
                            system -> system.getDispatcher(name).map(Dispatcher::getCompletedTurns).orElse(0L))
                    .description("Actor turns the dispatcher has run").baseUnit(TbActorsMeterNames.UNIT_TURNS).tags(tags)
                    .register(registry);
        }
        FunctionCounter.builder(TbActorsMeterNames.MESSAGES_TOLD_AFTER_STOP, this,
                        binder -> binder.actorSystem.getToldAfterStopCount() + binder.actorSystemContext.getRejectedMessageCount())
                .description("Messages told after shutdown began; each was told STOPPED").baseUnit(TbActorsMeterNames.UNIT_MESSAGES)
                .register(registry);
        FunctionCounter.builder(TbActorsMeterNames.DEAD_LETTERS, actorSystem, TbActorSystemIntrospection::getDeadLetterCount)
                .description("Messages to unknown or stopped actors, or refused or dropped by full mailboxes")
                .baseUnit(TbActorsMeterNames.UNIT_MESSAGES).register(registry);
        FunctionCounter.builder(TbActorsMeterNames.PASSIVATED, actorSystem, TbActorSystemIntrospection::getPassivatedCount)
                .description("Actors stopped after being idle for their idle timeout").baseUnit(TbActorsMeterNames.UNIT_ACTORS)
                .register(registry);
        FunctionCounter.builder(TbActorsMeterNames.CALLBACK_FAILURES, actorSystem, TbActorSystemIntrospection::getCallbackFailureCount)
                .description("Failures of user callbacks and plug-ins that the runtime contained (listeners, context "
                        + "propagators, dead-letter listeners, onTbActorStopped, destroy)").register(registry);
    }

    private synchronized double backlog(String dispatcher) {
        long now = System.nanoTime();
        if (!snapshotTaken || now - snapshotTakenAt > SNAPSHOT_TTL_NANOS) {
            Map<String, Long> backlog = new HashMap<>();
            for (DispatcherStats stats : actorSystem.getDispatcherStats()) {
                backlog.put(stats.name(), stats.pendingMessages());
            }
            backlogSnapshot = backlog;
            snapshotTakenAt = now;
            snapshotTaken = true;
        }
        return backlogSnapshot.getOrDefault(dispatcher, 0L);
    }
}
