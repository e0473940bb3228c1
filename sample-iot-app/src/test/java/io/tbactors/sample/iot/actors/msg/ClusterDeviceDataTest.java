package io.tbactors.sample.iot.actors.msg;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.TbActorMsg;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbOwnershipEpoch;
import io.tbactors.kafka.codec.JsonTbActorMsgCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ClusterDeviceDataTest {

    private final JsonTbActorMsgCodec codec = new JsonTbActorMsgCodec(JsonMapper.builder().build(),
            Map.of(ClusterDeviceData.TYPE, ClusterDeviceData.class));

    @Test
    void aPostThatCrossedTheWireIsStoredWithTheTypesTheDeviceApiGivesIt() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("temperature", 21L);
        values.put("humidity", 40.5);
        values.put("online", true);
        DeviceDataMsg posted = new DeviceDataMsg(UUID.randomUUID(), UUID.randomUUID(), "POST_TELEMETRY_REQUEST",
                List.of(new TsEntry(1_700_000_000_000L, values)), new CompletableFuture<>());

        TbActorMsg decoded = codec.decode(ClusterDeviceData.TYPE, codec.encode(ClusterDeviceData.of(posted)).payload());
        AtomicInteger processed = new AtomicInteger();
        AtomicInteger notProcessed = new AtomicInteger();
        TbEntityMsg envelope = TbEntityMsg.of("DEVICE", posted.deviceId(), decoded, processed::incrementAndGet,
                notProcessed::incrementAndGet);

        DeviceDataMsg received = (DeviceDataMsg) ClusterDeviceData.unwrap(envelope);

        assertThat(received.tenantId()).isEqualTo(posted.tenantId());
        assertThat(received.msgType()).isEqualTo(posted.msgType());
        assertThat(received.entries()).isEqualTo(posted.entries());
        assertThat(received.entries().get(0).values().get("temperature")).isInstanceOf(Long.class);
        received.processed().complete(null);
        assertThat(processed).hasValue(1);
        assertThat(notProcessed).hasValue(0);
    }

    @Test
    void aMessageRefusedOnTheOwnerCompletesItsEnvelopeAsNotProcessed() {
        AtomicInteger notProcessed = new AtomicInteger();
        ClusterDeviceData data = new ClusterDeviceData(UUID.randomUUID(), UUID.randomUUID(), "POST_TELEMETRY_REQUEST", List.of());
        TbEntityMsg envelope = TbEntityMsg.of("DEVICE", data.deviceId(), data, () -> { }, notProcessed::incrementAndGet);

        DeviceDataMsg received = (DeviceDataMsg) ClusterDeviceData.unwrap(envelope);
        received.processed().completeExceptionally(new IllegalStateException("mailbox full"));

        assertThat(notProcessed).hasValue(1);
    }

    @Test
    void aReadingWhosePartitionMovedWhileTheChainRanIsLeftToTheNewOwner() {
        AtomicInteger processed = new AtomicInteger();
        AtomicInteger notProcessed = new AtomicInteger();
        AtomicBoolean owned = new AtomicBoolean(true);
        ClusterDeviceData data = new ClusterDeviceData(UUID.randomUUID(), UUID.randomUUID(), "POST_TELEMETRY_REQUEST", List.of());
        TbEntityMsg envelope = TbEntityMsg.of("DEVICE", data.deviceId(), data, TbOwnershipEpoch.of(3, 1, owned::get),
                processed::incrementAndGet, notProcessed::incrementAndGet);

        DeviceDataMsg received = (DeviceDataMsg) ClusterDeviceData.unwrap(envelope);
        owned.set(false);
        received.processed().complete(null);

        assertThat(processed).as("completion withheld: the record stays uncommitted for the new owner").hasValue(0);
        assertThat(notProcessed).hasValue(1);
    }

    @Test
    void anEnvelopeThatCarriesNoDeviceDataFails() {
        AtomicInteger notProcessed = new AtomicInteger();
        TbActorMsg other = new TbActorMsg() { };
        TbEntityMsg envelope = TbEntityMsg.of("DEVICE", UUID.randomUUID(), other, () -> { }, notProcessed::incrementAndGet);

        assertThat(ClusterDeviceData.unwrap(envelope)).isSameAs(other);
        assertThat(notProcessed).hasValue(1);
    }
}
