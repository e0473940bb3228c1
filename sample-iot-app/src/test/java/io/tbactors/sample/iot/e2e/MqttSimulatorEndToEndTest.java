package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.tbactors.sample.iot.transport.mqtt.MqttDeviceServer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/** The simulator's checks again, with its devices on the MQTT device API ({@code sample.simulator.transport=mqtt}). */
@TestPropertySource(properties = "sample.simulator.transport=mqtt")
class MqttSimulatorEndToEndTest extends SimulatorEndToEndTest {

    @Autowired
    MqttDeviceServer server;

    @Test
    void theSimulatedDevicesPublishOverMqtt() {
        await().atMost(Duration.ofSeconds(20)).until(() -> server.getMetrics().getStored() >= 30);
        assertThat(server.getMetrics().getConnections()).isEqualTo(3);
    }
}
