package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import io.tbactors.sample.iot.simulator.DeviceSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "sample.simulator.enabled=true", "sample.simulator.devices=3", "sample.simulator.interval=50ms",
    "sample.simulator.status-interval=200ms", "sample.simulator.alarm-share=1.0"})
@ActiveProfiles("test")
@ExtendWith(OutputCaptureExtension.class)
class SimulatorEndToEndTest {

    @LocalServerPort
    int port;

    @Autowired
    DeviceSimulator simulator;

    @Test
    void theSimulatorPostsThroughTheDeviceApiRaisesAlarmsAndPrintsAStatusLine(CapturedOutput output) {
        ApiClient api = new ApiClient(port);

        await().atMost(Duration.ofSeconds(20)).until(() -> simulator.getSent() >= 30);
        List<JsonNode> devices = api.get("/api/devices").json().valueStream()
                .filter(d -> d.get("name").stringValue().startsWith("sim-device-")).toList();
        assertThat(devices).hasSize(3);
        for (JsonNode device : devices) {
            String id = device.get("id").stringValue();
            JsonNode latest = await().atMost(Duration.ofSeconds(10))
                    .until(() -> api.get("/api/devices/" + id + "/telemetry/latest").json(), json -> json.has("humidity"));
            assertThat(latest.get("temperature").get("value").doubleValue()).as("all readings above the threshold").isGreaterThan(30);
            await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/api/alarms?status=ACTIVE&deviceId=" + id).json().size() == 1);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("3 active alarms"));
        assertThat(output.getOut()).contains("msg/s posted (0 errors").contains("| 3 devices |").contains("actors | mailbox backlog");
    }
}
