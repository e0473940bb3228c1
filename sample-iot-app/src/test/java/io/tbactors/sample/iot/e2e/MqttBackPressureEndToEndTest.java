package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.sample.iot.transport.mqtt.MqttDeviceServer;
import io.tbactors.sample.iot.ingestion.InFlightLimiter;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * TCP back-pressure on the MQTT device API: while the rule engine cannot take a device's messages (its dispatcher's
 * only thread is held), the server stops reading the device's connection once the connection's work in flight is at
 * its bound. What the client sends meanwhile stays in TCP buffers and the client's own queue, not in the server:
 * the server reads at most the bound plus one socket read. Released, every message is stored, in order.
 */
@TestPropertySource(properties = {
    "tb.actors.dispatchers.device.type=single",
    "sample.mqtt.max-in-flight-per-connection=" + MqttBackPressureEndToEndTest.BOUND
})
class MqttBackPressureEndToEndTest extends EndToEndTest {

    static final int BOUND = 8;
    private static final int MESSAGES = 3000;
    /** One socket read (Netty reads at most 64 KB at a time) of messages of about 1 KB. */
    private static final int ONE_READ = 128;

    @Autowired
    DefaultTbActorSystem actorSystem;

    @Autowired
    MqttDeviceServer server;

    @Autowired
    InFlightLimiter limiter;

    @Test
    void aStalledRuleEngineStopsTheServerReadingTheConnectionAndNothingIsLost() throws Exception {
        ApiClient.Device device = newDevice();
        String pad = "x".repeat(1000);
        try (MqttDevice mqtt = MqttDevice.connect(server.getPort(), device.token(), MESSAGES + 10)) {
            // the device actor exists before the hold, so the messages queue in its mailbox
            mqtt.publishAndWait(MqttDevice.TELEMETRY, "{\"warm\": 1}");
            long readBefore = server.getMetrics().getPublishesRead();
            List<IMqttDeliveryToken> tokens = new ArrayList<>();
            try (HeldDispatcher held = HeldDispatcher.hold(actorSystem, "device")) {
                for (int seq = 0; seq < MESSAGES; seq++) {
                    tokens.add(mqtt.publish(MqttDevice.TELEMETRY, "{\"seq\": " + seq + ", \"pad\": \"" + pad + "\"}", 1));
                }

                await().atMost(Duration.ofSeconds(10)).until(() -> server.getMetrics().getPausedConnections() == 1);
                // and it stays so: the server does not read on while nothing is stored
                await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(
                        () -> server.getMetrics().getPublishesRead() - readBefore <= BOUND + ONE_READ);
                assertThat(server.getMetrics().getPausedConnections()).isEqualTo(1);
                // the bound's messages, of two values each (seq and pad)
                assertThat(limiter.getInFlightValues()).isLessThanOrEqualTo(2L * BOUND);
                assertThat(tokens).as("nothing is acknowledged while nothing is stored")
                        .noneMatch(IMqttDeliveryToken::isComplete);
            }

            for (IMqttDeliveryToken token : tokens) {
                token.waitForCompletion(60_000);
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.getMetrics().getPausedConnections() == 0);
        JsonNode history = api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq&limit=10000").json();
        assertThat(history.get("seq").valueStream().map(v -> v.get("value").longValue()).toList())
                .containsExactlyElementsOf(LongStream.range(0, MESSAGES).boxed().toList());
    }
}
