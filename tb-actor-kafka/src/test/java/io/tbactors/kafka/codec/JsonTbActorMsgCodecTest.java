package io.tbactors.kafka.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.api.TbActorMsg;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class JsonTbActorMsgCodecTest {

    record Telemetry(UUID deviceId, Instant ts, double temperature) implements TbActorMsg {
    }

    record Unregistered(int value) implements TbActorMsg {
    }

    record Unreadable(int value) implements TbActorMsg {

        @Override
        public int value() {
            throw new IllegalStateException("the value cannot be read");
        }
    }

    private final JsonTbActorMsgCodec codec = new JsonTbActorMsgCodec(JsonMapper.builder().build(),
            Map.of("telemetry", Telemetry.class, "unreadable", Unreadable.class));

    @Test
    void aRegisteredMessageCrossesTheWireUnderItsNameAndComesBackEqual() {
        Telemetry telemetry = new Telemetry(UUID.randomUUID(), Instant.parse("2026-01-02T03:04:05Z"), 21.5);

        TbEncodedMsg encoded = codec.encode(telemetry);

        assertThat(encoded.type()).isEqualTo("telemetry");
        assertThat(new String(encoded.payload(), StandardCharsets.UTF_8)).contains("\"temperature\":21.5");
        assertThat(codec.decode("telemetry", encoded.payload())).isEqualTo(telemetry);
    }

    @Test
    void anUnregisteredTypeFailsWithAnErrorThatNamesThePropertyToSet() {
        assertThatThrownBy(() -> codec.checkEncodable(Unregistered.class))
                .isInstanceOf(TbActorMsgEncodingException.class)
                .hasMessageContaining(Unregistered.class.getName())
                .hasMessageContaining("tb.actors.cluster.message-types.<name>=" + Unregistered.class.getName());
        assertThatThrownBy(() -> codec.encode(new Unregistered(1))).isInstanceOf(TbActorMsgEncodingException.class);
    }

    @Test
    void contentJacksonCannotWriteFailsAtEncodingWithTheMessageType() {
        assertThatThrownBy(() -> codec.encode(new Unreadable(1)))
                .isInstanceOf(TbActorMsgEncodingException.class)
                .hasMessageContaining(Unreadable.class.getName())
                .hasCauseInstanceOf(tools.jackson.core.JacksonException.class);
    }

    @Test
    void anUnknownTypeOrBrokenJsonFailsDecodingWithoutGuessingAClass() {
        assertThatThrownBy(() -> codec.decode(Unregistered.class.getName(), "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(TbActorMsgDecodingException.class)
                .hasMessageContaining("Unknown message type");
        assertThatThrownBy(() -> codec.decode("telemetry", "{not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(TbActorMsgDecodingException.class)
                .hasMessageContaining("not a valid 'telemetry' message");
    }

    @Test
    void oneClassUnderTwoNamesIsRefused() {
        JsonMapper mapper = JsonMapper.builder().build();
        Map<String, Class<? extends TbActorMsg>> twice = Map.of("a", Telemetry.class, "b", Telemetry.class);
        assertThatThrownBy(() -> new JsonTbActorMsgCodec(mapper, twice))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registered twice");
    }

    @Test
    void theRegisteredTypesAreListedByName() {
        assertThat(codec.getTypes()).containsOnlyKeys("telemetry", "unreadable");
    }
}
