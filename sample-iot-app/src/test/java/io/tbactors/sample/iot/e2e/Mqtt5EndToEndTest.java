package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import io.tbactors.sample.iot.transport.mqtt.MqttDeviceServer;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * MQTT 5 clients (Eclipse Paho's MQTT 5 client) get what MQTT 3.1.1 cannot say: a negative PUBACK with a reason
 * code for a message that was not taken, on a connection that stays open.
 */
class Mqtt5EndToEndTest extends EndToEndTest {

    private static final int NOT_AUTHORIZED = 0x87;
    private static final int PAYLOAD_FORMAT_INVALID = 0x99;
    private static final int TOPIC_NAME_INVALID = 0x90;

    @Autowired
    MqttDeviceServer server;

    @Test
    void aStoredMessageIsAcknowledgedAndAnInvalidOneGetsANegativePubackOnAConnectionThatStays() throws Exception {
        ApiClient.Device device = newDevice();
        MqttAsyncClient client = connect(device.token());
        try {
            IMqttToken stored = client.publish("v1/devices/me/telemetry", bytes("{\"v5\": 5}"), 1, false);
            stored.waitForCompletion(15_000);
            assertThat(stored.getReasonCodes()).containsExactly(0);
            assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().get("v5").get("value").longValue())
                    .isEqualTo(5);

            assertThat(reasonOf(client.publish("v1/devices/me/telemetry", bytes("{\"v5\": "), 1, false)))
                    .isEqualTo(PAYLOAD_FORMAT_INVALID);
            assertThat(reasonOf(client.publish("v1/devices/me/elsewhere", bytes("{\"v5\": 6}"), 1, false)))
                    .isEqualTo(TOPIC_NAME_INVALID);
            assertThat(client.isConnected()).isTrue();
        } finally {
            client.disconnectForcibly(1000);
            client.close();
        }
    }

    @Test
    void anUnknownTokenIsRefusedWithNotAuthorized() {
        assertThatThrownBy(() -> connect("no-such-token"))
                .isInstanceOfSatisfying(MqttException.class, refused -> assertThat(refused.getReasonCode())
                        .isEqualTo(NOT_AUTHORIZED));
    }

    private MqttAsyncClient connect(String token) throws MqttException {
        MqttAsyncClient client = new MqttAsyncClient("tcp://localhost:" + server.getPort(),
                "v5-" + UUID.randomUUID().toString().substring(0, 8), new MemoryPersistence());
        MqttConnectionOptions options = new MqttConnectionOptions();
        options.setUserName(token);
        options.setCleanStart(true);
        try {
            client.connect(options).waitForCompletion(15_000);
        } catch (MqttException refused) {
            client.close(true);
            throw refused;
        }
        return client;
    }

    private static int reasonOf(IMqttToken token) {
        try {
            token.waitForCompletion(15_000);
            return token.getReasonCodes()[0];
        } catch (MqttException refused) {
            return refused.getReasonCode();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
