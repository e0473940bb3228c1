package io.tbactors.spring.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.TbActorSystemListener;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns the runtime's events into Micrometer meters tagged by {@code dispatcher} and {@code actor.type} only (never
 * an actor id, which would make one time series per device). Meters of a dispatcher and actor type are created the
 * first time they are seen and looked up with two map reads afterwards, so the hot path allocates nothing.
 */
public class TbActorsMetricsListener implements TbActorSystemListener {

    private static final String DISPATCHER = "dispatcher";
    private static final String ACTOR_TYPE = "actor.type";

    private final MeterRegistry registry;
    private final boolean waitTime;
    private final ConcurrentMap<String, ConcurrentMap<String, ActorTypeMeters>> meters = new ConcurrentHashMap<>();
    private final Map<TbActorStopReason, Counter> notProcessed = new EnumMap<>(TbActorStopReason.class);

    /**
     * @param registry where the meters go
     * @param waitTime whether mailbox wait times are recorded (then {@value TbActorsMeterNames#MESSAGES_WAIT} exists)
     */
    public TbActorsMetricsListener(MeterRegistry registry, boolean waitTime) {
        this.registry = registry;
        this.waitTime = waitTime;
        for (TbActorStopReason reason : TbActorStopReason.values()) {
            notProcessed.put(reason, Counter.builder(TbActorsMeterNames.MESSAGES_NOT_PROCESSED)
                    .description("Messages that were never processed; each was told why through onTbActorStopped")
                    .baseUnit(TbActorsMeterNames.UNIT_MESSAGES)
                    .tag("reason", reason.name())
                    .register(registry));
        }
    }

    @Override
    public void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
        ActorTypeMeters m = meters(dispatcher, actorType);
        (failed ? m.failed : m.processed).record(processNanos, TimeUnit.NANOSECONDS);
        if (waitNanos >= 0 && m.waiting != null) {
            m.waiting.record(waitNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
        meters(dispatcher, actorType).initFailures.increment();
    }

    @Override
    public void onActorFailure(TbActorId actorId, String dispatcher, String actorType, ActorFailure.Phase phase,
                               ActorFailure.Outcome outcome, Throwable cause) {
        // rare: a lookup by tags in the registry is cheap enough, and a failure's meter exists only once it happened
        Counter.builder(TbActorsMeterNames.FAILURES)
                .description("Failures of actors' init and process, by what the runtime did about them")
                .baseUnit(TbActorsMeterNames.UNIT_EVENTS)
                .tags(ACTOR_TYPE, actorType, "phase", phase.tag(), "outcome", outcome.tag())
                .register(registry).increment();
    }

    @Override
    public void onActorCreated(String dispatcher, String actorType) {
        meters(dispatcher, actorType).alive.incrementAndGet();
    }

    @Override
    public void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
        meters(dispatcher, actorType).alive.decrementAndGet();
    }

    @Override
    public void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
        Counter counter = notProcessed.get(reason);
        if (counter != null) {
            counter.increment();
        }
    }

    @Override
    public void onSlowProcessing(String dispatcher, String actorType, long processNanos) {
        meters(dispatcher, actorType).slow.increment();
    }

    @Override
    public void onActorRestarted(String dispatcher, String actorType) {
        meters(dispatcher, actorType).restarts.increment();
    }

    @Override
    public void onTryTellRefused(String dispatcher, String actorType) {
        meters(dispatcher, actorType).refused.increment();
    }

    private ActorTypeMeters meters(String dispatcher, String actorType) {
        ConcurrentMap<String, ActorTypeMeters> byType = meters.get(dispatcher);
        if (byType == null) {
            byType = meters.computeIfAbsent(dispatcher, d -> new ConcurrentHashMap<>());
        }
        ActorTypeMeters m = byType.get(actorType);
        if (m == null) {
            m = byType.computeIfAbsent(actorType, type -> new ActorTypeMeters(Tags.of(DISPATCHER, dispatcher, ACTOR_TYPE, type)));
        }
        return m;
    }

    /** The meters of one dispatcher and actor type. */
    private final class ActorTypeMeters {
        final Timer processed;
        final Timer failed;
        final Counter initFailures;
        final Counter slow;
        final Counter restarts;
        final Counter refused;
        final Timer waiting;
        final AtomicInteger alive = new AtomicInteger();

        ActorTypeMeters(Tags tags) {
            processed = processingTimer(tags, TbActorsMeterNames.OUTCOME_SUCCESS);
            failed = processingTimer(tags, TbActorsMeterNames.OUTCOME_FAILURE);
            initFailures = Counter.builder(TbActorsMeterNames.INIT_FAILURES)
                    .description("Failed attempts to initialise an actor").baseUnit(TbActorsMeterNames.UNIT_EVENTS).tags(tags)
                    .register(registry);
            slow = Counter.builder(TbActorsMeterNames.MESSAGES_SLOW)
                    .description("Messages whose processing took longer than tb.actors.slow-processing-threshold")
                    .baseUnit(TbActorsMeterNames.UNIT_MESSAGES).tags(tags).register(registry);
            restarts = Counter.builder(TbActorsMeterNames.RESTARTS)
                    .description("Actors restarted after a failure").baseUnit(TbActorsMeterNames.UNIT_EVENTS).tags(tags)
                    .register(registry);
            refused = Counter.builder(TbActorsMeterNames.MESSAGES_REFUSED)
                    .description("tryTell calls refused by a full mailbox; the message stayed with its sender")
                    .baseUnit(TbActorsMeterNames.UNIT_MESSAGES).tags(tags).register(registry);
            waiting = !waitTime ? null : Timer.builder(TbActorsMeterNames.MESSAGES_WAIT)
                    .description("Time a message waited in its mailbox before processing").tags(tags).register(registry);
            Gauge.builder(TbActorsMeterNames.ACTORS_ALIVE, alive, AtomicInteger::get)
                    .description("Live actors").baseUnit(TbActorsMeterNames.UNIT_ACTORS).tags(tags).strongReference(true)
                    .register(registry);
        }

        private Timer processingTimer(Tags tags, String outcome) {
            return Timer.builder(TbActorsMeterNames.MESSAGES_PROCESSING)
                    .description("Time an actor took to process a message; the outcome says whether processing threw")
                    .tags(tags).tag(TbActorsMeterNames.OUTCOME, outcome).register(registry);
        }
    }
}
