package io.tbactors.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class ApiValueTypesTest {

    private static final UUID ID = UUID.fromString("0b0c5e1a-1111-4b2c-9f00-000000000001");

    @Test
    void stringActorIdsAreEqualByValueAndPrintTheirId() {
        assertThat(new TbStringActorId("app")).isEqualTo(new TbStringActorId("app"))
                .hasSameHashCodeAs(new TbStringActorId("app"))
                .isNotEqualTo(new TbStringActorId("other"));
        assertThat(new TbStringActorId("app")).hasToString("app");
        assertThat(new TbStringActorId("app").getEntityType()).isNull();
        assertThat(new TbStringActorId("app").getId()).isEqualTo("app");
    }

    @Test
    void entityActorIdsAreEqualByTypeAndUuidAndPrintTypeBarUuid() {
        TbEntityActorId device = new TbEntityActorId("DEVICE", ID);
        assertThat(device).isEqualTo(new TbEntityActorId("DEVICE", ID)).hasSameHashCodeAs(new TbEntityActorId("DEVICE", ID));
        assertThat(device).isNotEqualTo(new TbEntityActorId("TENANT", ID));
        assertThat(device).hasToString("DEVICE|" + ID);
        assertThat(device.getEntityType()).isEqualTo("DEVICE");
        assertThat(device.getEntityId()).isEqualTo(ID);
        assertThat((Object) device).isNotEqualTo(new TbStringActorId("DEVICE|" + ID));
    }

    @Test
    void badIdsAreRefusedWithAMessageNamingTheRule() {
        assertThatThrownBy(() -> new TbStringActorId(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("must not be null");
        assertThatThrownBy(() -> new TbEntityActorId(" ", ID)).hasMessageContaining("non-blank");
        assertThatThrownBy(() -> new TbEntityActorId("A|B", ID)).hasMessageContaining("without '|'");
        assertThatThrownBy(() -> new TbEntityActorId("DEVICE", null)).hasMessageContaining("entityId");
    }

    @Test
    void initFailureStrategiesCarryTheirDecision() {
        assertThat(InitFailureStrategy.stop().isStop()).isTrue();
        assertThat(InitFailureStrategy.retryImmediately().isStop()).isFalse();
        assertThat(InitFailureStrategy.retryImmediately().getRetryDelay()).isZero();
        assertThat(InitFailureStrategy.retryWithDelay(250).getRetryDelay()).isEqualTo(250);
        assertThat(InitFailureStrategy.retryWithDelay(250)).hasToString("retryWithDelay(250 ms)");
        assertThatThrownBy(() -> InitFailureStrategy.retryWithDelay(-1)).hasMessageContaining(">= 0");
    }

    @Test
    void defaultActorRetriesInitWithGrowingDelayAndStopsOnlyOnErrors() {
        TbActor actor = new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }
        };
        assertThat(actor.onInitFailure(1, new RuntimeException()).getRetryDelay()).isEqualTo(5000);
        assertThat(actor.onInitFailure(3, new RuntimeException()).getRetryDelay()).isEqualTo(15000);
        assertThat(actor.onProcessFailure(new TbActorMsg() { }, new IllegalStateException()).isStop()).isFalse();
        assertThat(actor.onProcessFailure(new TbActorMsg() { }, new AssertionError()).isStop()).isTrue();
        assertThat(ProcessFailureStrategy.stop()).hasToString("stop");
        assertThat(ProcessFailureStrategy.resume()).hasToString("resume");
    }

    @Test
    void notRegisteredExceptionNamesItsTarget() {
        TbActorId id = new TbStringActorId("missing");
        TbActorNotRegisteredException e = new TbActorNotRegisteredException(id, "Actor with id [missing] is not registered");
        assertThat(e.getTarget()).isEqualTo(id);
        assertThat(e).hasMessageContaining("missing");
        assertThat(new TbActorException("init failed", e)).hasCause(e);
    }
}
