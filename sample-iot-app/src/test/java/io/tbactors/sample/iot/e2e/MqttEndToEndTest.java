package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import io.tbactors.sample.iot.transport.mqtt.MqttDeviceServer;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttSecurityException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * The MQTT device API through a real MQTT client (Eclipse Paho, MQTT 3.1.1) against the whole application: a PUBACK
 * means stored, so every read-back below happens right after the acknowledgement, without waiting.
 */
@ExtendWith(OutputCaptureExtension.class)
class MqttEndToEndTest extends EndToEndTest {

    private static final int WINDOW = 900;

    @Autowired
    MqttDeviceServer server;

    @Value("${local.mqtt.port}")
    int mqttPort;

    @Test
    void theBoundPortIsPublishedAsLocalMqttPort() {
        assertThat(mqttPort).isPositive().isEqualTo(server.getPort());
    }

    @Test
    void keyValueTelemetryIsStoredWhenThePubackArrives() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.publishAndWait(MqttDevice.TELEMETRY, "{\"temperature\": 21.5, \"online\": true, \"mode\": \"eco\", "
                    + "\"location\": {\"lat\": 52.1}}");

            JsonNode latest = api.get(TelemetryEndToEndTest.latestPath(device)).json();
            assertThat(latest.get("temperature").get("value").doubleValue()).isEqualTo(21.5);
            assertThat(latest.get("online").get("value").booleanValue()).isTrue();
            assertThat(latest.get("mode").get("value").stringValue()).isEqualTo("eco");
            assertThat(latest.get("location").get("value").get("lat").doubleValue()).isEqualTo(52.1);
        }
    }

    @Test
    void telemetryWithItsOwnTimestampAndAnArrayOfThemAreStoredWhenAcknowledged() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.publishAndWait(MqttDevice.TELEMETRY, "{\"ts\": 1700000000000, \"values\": {\"pressure\": 1013}}");
            JsonNode latest = api.get(TelemetryEndToEndTest.latestPath(device)).json();
            assertThat(latest.get("pressure").get("ts").longValue()).isEqualTo(1700000000000L);
            assertThat(latest.get("pressure").get("value").longValue()).isEqualTo(1013);

            mqtt.publishAndWait(MqttDevice.TELEMETRY, "[{\"ts\": 3000, \"values\": {\"level\": 3}}, "
                    + "{\"ts\": 1000, \"values\": {\"level\": 1}}, {\"ts\": 2000, \"values\": {\"level\": 2}}]");
            JsonNode history = api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=level").json();
            assertThat(history.get("level").valueStream().map(v -> v.get("value").longValue())).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void attributesAreStoredWhenAcknowledged() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.publishAndWait(MqttDevice.ATTRIBUTES, "{\"firmware\": \"1.4.2\", \"slots\": 4}");

            JsonNode attributes = api.get("/api/devices/" + device.id() + "/attributes").json();
            assertThat(attributes.get("firmware").get("value").stringValue()).isEqualTo("1.4.2");
            assertThat(attributes.get("slots").get("value").longValue()).isEqualTo(4);
        }
    }

    @Test
    void aQos0MessageIsStoredWithoutAnAcknowledgement() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.publish(MqttDevice.TELEMETRY, "{\"fire-and-forget\": 1}", 0);

            await().atMost(Duration.ofSeconds(10)).until(() -> api.get(TelemetryEndToEndTest.latestPath(device)).json(),
                    json -> json.has("fire-and-forget"));
        }
    }

    @Test
    void anUnknownAccessTokenIsRefusedAsNotAuthorized() {
        long refusedBefore = server.getMetrics().getConnectsRefused();

        assertThatThrownBy(() -> MqttDevice.connect(mqttPort, "no-such-token", 10))
                .isInstanceOfSatisfying(MqttSecurityException.class, refused ->
                        assertThat(refused.getReasonCode()).isEqualTo(MqttException.REASON_CODE_NOT_AUTHORIZED));
        assertThat(server.getMetrics().getConnectsRefused()).isEqualTo(refusedBefore + 1);
    }

    @Test
    void aPayloadOverTheLimitClosesTheConnectionWithTheReasonLoggedOnce(CapturedOutput output) throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            byte[] oversize = ("{\"big\": \"" + "x".repeat(64 * 1024) + "\"}").getBytes();
            mqtt.publish(MqttDevice.TELEMETRY, oversize, 1);

            assertThat(mqtt.lost().await(10, TimeUnit.SECONDS)).as("the server closed the connection").isTrue();
        }
        String log = output.getAll();
        String line = "Closing the MQTT connection of device " + getClass().getSimpleName();
        assertThat(log.split(line, -1)).as("one line with the reason: %s", log).hasSize(2);
        String reason = log.substring(log.indexOf(line)).lines().findFirst().orElseThrow();
        assertThat(reason).contains("sample.device-api.max-payload-size");
        assertThat(log.substring(log.indexOf(line))).as("no stack trace").doesNotContain("\tat ");
        assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().has("big")).isFalse();
    }

    @Test
    void malformedJsonIsRejectedAndCountedAndTheConnectionStays() throws Exception {
        ApiClient.Device device = newDevice();
        long invalidBefore = server.getMetrics().getInvalid();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            IMqttDeliveryToken malformed = mqtt.publish(MqttDevice.TELEMETRY, "{\"temperature\": ", 1);
            mqtt.publishAndWait(MqttDevice.TELEMETRY, "{\"after\": 1}");

            assertThat(mqtt.isConnected()).isTrue();
            assertThat(malformed.isComplete()).as("a rejected message is never acknowledged (3.1.1)").isFalse();
            assertThat(server.getMetrics().getInvalid()).isEqualTo(invalidBefore + 1);
            JsonNode latest = api.get(TelemetryEndToEndTest.latestPath(device)).json();
            assertThat(latest.has("after")).isTrue();
            assertThat(latest.has("temperature")).isFalse();
            assertThat(api.get("/actuator/metrics/sample.iot.mqtt.messages?tag=result:invalid").json()
                    .get("measurements").get(0).get("value").doubleValue()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void aSecondConnectionWithTheSameTokenTakesOverAndClosesTheFirst() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice first = MqttDevice.connect(mqttPort, device.token(), 10);
             MqttDevice second = MqttDevice.connect(mqttPort, device.token(), 10)) {
            assertThat(first.lost().await(10, TimeUnit.SECONDS)).as("the first connection is closed").isTrue();

            second.publishAndWait(MqttDevice.TELEMETRY, "{\"second\": 2}");
            assertThat(second.isConnected()).isTrue();
            assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().has("second")).isTrue();
        }
    }

    @Test
    void tenThousandQos1MessagesOfOneDeviceAreStoredInTheOrderTheyWereSent() throws Exception {
        int messages = 10_000;
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 1000)) {
            List<IMqttDeliveryToken> tokens = new ArrayList<>(messages);
            for (int seq = 0; seq < messages; seq++) {
                if (seq >= WINDOW) {
                    // as a device does: at most WINDOW unacknowledged (below the client's own limit of 1000)
                    tokens.get(seq - WINDOW).waitForCompletion(60_000);
                }
                tokens.add(publishWhenThereIsRoom(mqtt, "{\"seq\": " + seq + "}"));
            }
            for (IMqttDeliveryToken token : tokens) {
                token.waitForCompletion(60_000);
            }
        }

        JsonNode history = api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq&limit=10000").json();
        List<Long> stored = history.get("seq").valueStream().map(v -> v.get("value").longValue()).toList();
        assertThat(stored).as("in time order, as acknowledged")
                .containsExactlyElementsOf(LongStream.range(0, messages).boxed().toList());
    }

    /**
     * Paho completes a token a moment before it frees the message's in-flight slot; a publish in that moment is
     * refused with {@code REASON_CODE_MAX_INFLIGHT}, and tried again.
     */
    static IMqttDeliveryToken publishWhenThereIsRoom(MqttDevice mqtt, String payload) throws MqttException {
        while (true) {
            try {
                return mqtt.publish(MqttDevice.TELEMETRY, payload, 1);
            } catch (MqttException full) {
                if (full.getReasonCode() != MqttException.REASON_CODE_MAX_INFLIGHT) {
                    throw full;
                }
                Thread.yield();
            }
        }
    }
}
