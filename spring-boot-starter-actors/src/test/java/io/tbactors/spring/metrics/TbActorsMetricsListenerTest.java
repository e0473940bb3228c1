package io.tbactors.spring.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.observe.ActorFailure;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TbActorsMetricsListenerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void processingFailuresAndTimesAreCountedPerDispatcherAndActorType() {
        TbActorsMetricsListener listener = new TbActorsMetricsListener(registry, false);

        listener.onMessageProcessed("d", "DeviceActor", -1, 2_000_000, false);
        listener.onMessageProcessed("d", "DeviceActor", -1, 4_000_000, true);
        listener.onMessageProcessed("e", "DeviceActor", -1, 1_000_000, false);

        assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tags("dispatcher", "d", "actor.type", "DeviceActor")
                .tag(TbActorsMeterNames.OUTCOME, TbActorsMeterNames.OUTCOME_SUCCESS).timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(2.0);
        assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tags("dispatcher", "d")
                .tag(TbActorsMeterNames.OUTCOME, TbActorsMeterNames.OUTCOME_FAILURE).timer().count()).isEqualTo(1);
        assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tags("dispatcher", "d").timers())
                .as("one timer per outcome, together every processed message").hasSize(2)
                .allSatisfy(timer -> assertThat(timer.count()).isEqualTo(1));
        assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tags("dispatcher", "e")
                .tag(TbActorsMeterNames.OUTCOME, TbActorsMeterNames.OUTCOME_SUCCESS).timer().count()).isEqualTo(1);
        assertThat(registry.find("tb.actors.messages.processed").meter()).as("no counter repeats the timer's count").isNull();
        assertThat(registry.find("tb.actors.messages.failed").meter()).as("no counter repeats the timer's count").isNull();
        assertThat(registry.find(TbActorsMeterNames.MESSAGES_WAIT).timer()).as("wait times are off").isNull();
    }

    @Test
    void failuresOfActorsAreCountedByTypePhaseAndOutcome() {
        TbActorsMetricsListener listener = new TbActorsMetricsListener(registry, false);

        TbActorId device = new TbStringActorId("device-1");
        IllegalStateException boom = new IllegalStateException("boom");
        listener.onActorFailure(device, "d", "DeviceActor", ActorFailure.Phase.PROCESS, ActorFailure.Outcome.RESUMED, boom);
        listener.onActorFailure(device, "d", "DeviceActor", ActorFailure.Phase.PROCESS, ActorFailure.Outcome.RESUMED, boom);
        listener.onActorFailure(device, "d", "DeviceActor", ActorFailure.Phase.INIT, ActorFailure.Outcome.GAVE_UP, boom);

        assertThat(registry.get(TbActorsMeterNames.FAILURES).tags("actor.type", "DeviceActor", "phase", "process", "outcome", "resumed")
                .counter().count()).isEqualTo(2.0);
        assertThat(registry.get(TbActorsMeterNames.FAILURES).tags("phase", "init", "outcome", "gave-up").counter().count()).isEqualTo(1.0);
    }

    @Test
    void waitTimesAreRecordedWhenOn() {
        TbActorsMetricsListener listener = new TbActorsMetricsListener(registry, true);

        listener.onMessageProcessed("d", "DeviceActor", 3_000_000, 1, false);

        assertThat(registry.get(TbActorsMeterNames.MESSAGES_WAIT).timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3.0);
    }

    @Test
    void actorsAliveFollowCreationAndDestruction() {
        TbActorsMetricsListener listener = new TbActorsMetricsListener(registry, false);

        listener.onActorCreated("d", "DeviceActor");
        listener.onActorCreated("d", "DeviceActor");
        listener.onActorDestroyed("d", "DeviceActor", TbActorStopReason.STOPPED);

        assertThat(registry.get(TbActorsMeterNames.ACTORS_ALIVE).tags("dispatcher", "d", "actor.type", "DeviceActor")
                .gauge().value()).isEqualTo(1.0);
    }

    @Test
    void initFailuresAndUnprocessedMessagesAreCountedWithoutActorIds() {
        TbActorsMetricsListener listener = new TbActorsMetricsListener(registry, false);
        TbStringActorId id = new TbStringActorId("device-42");

        listener.onInitFailure(id, "d", "DeviceActor", 1, new IllegalStateException("db down"));
        listener.onMessageNotProcessed(id, new TbActorMsg() { }, TbActorStopReason.INIT_FAILED, false);
        listener.onMessageNotProcessed(id, new TbActorMsg() { }, TbActorStopReason.STOPPED, true);
        listener.onMessageNotProcessed(id, new TbActorMsg() { }, TbActorStopReason.STOPPED, true);

        assertThat(registry.get(TbActorsMeterNames.INIT_FAILURES).tags("actor.type", "DeviceActor").counter().count()).isEqualTo(1.0);
        assertThat(registry.get(TbActorsMeterNames.MESSAGES_NOT_PROCESSED).tag("reason", "INIT_FAILED").counter().count())
                .isEqualTo(1.0);
        assertThat(registry.get(TbActorsMeterNames.MESSAGES_NOT_PROCESSED).tag("reason", "STOPPED").counter().count())
                .isEqualTo(2.0);
        assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTags())
                .noneSatisfy(tag -> assertThat(tag.getValue()).contains("device-42")));
    }

    @Test
    void slowMessagesRestartsAndRefusedTellsAreCountedPerDispatcherAndActorType() {
        TbActorsMetricsListener listener = new TbActorsMetricsListener(registry, false);

        listener.onSlowProcessing("d", "RuleNodeActor", 5_000_000_000L);
        listener.onActorRestarted("d", "RuleNodeActor");
        listener.onActorRestarted("d", "RuleNodeActor");
        listener.onTryTellRefused("d", "DeviceActor");

        assertThat(registry.get(TbActorsMeterNames.MESSAGES_SLOW).tag("actor.type", "RuleNodeActor").counter().count()).isEqualTo(1.0);
        assertThat(registry.get(TbActorsMeterNames.RESTARTS).tag("actor.type", "RuleNodeActor").counter().count()).isEqualTo(2.0);
        assertThat(registry.get(TbActorsMeterNames.MESSAGES_REFUSED).tag("actor.type", "DeviceActor").counter().count()).isEqualTo(1.0);
    }
}
