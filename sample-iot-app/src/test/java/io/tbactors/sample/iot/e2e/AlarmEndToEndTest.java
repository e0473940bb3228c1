package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.tbactors.sample.iot.stats.IotStats;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class AlarmEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    IotStats stats;

    @Test
    void crossingTheThresholdRaisesExactlyOneActiveAlarmAndComingBackClearsIt() {
        ApiClient.Device device = newDevice();

        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 10000, \"values\": {\"temperature\": 35}}");
        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 11000, \"values\": {\"temperature\": 38}}");

        JsonNode active = await().atMost(WAIT).until(() -> alarms(device, "ACTIVE"),
                list -> list.size() == 1 && list.get(0).get("endTs").longValue() == 11000);
        assertThat(active).hasSize(1);
        assertThat(active.get(0).get("type").stringValue()).isEqualTo("High Temperature");
        assertThat(active.get(0).get("severity").stringValue()).isEqualTo("CRITICAL");
        assertThat(active.get(0).get("status").stringValue()).isEqualTo("ACTIVE");
        assertThat(active.get(0).get("startTs").longValue()).isEqualTo(10000);

        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 12000, \"values\": {\"temperature\": 22}}");

        JsonNode cleared = await().atMost(WAIT).until(() -> alarms(device, "CLEARED"), list -> list.size() == 1);
        assertThat(cleared.get(0).get("id")).isEqualTo(active.get(0).get("id"));
        assertThat(alarms(device, "ACTIVE")).isEmpty();

        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 13000, \"values\": {\"temperature\": 31}}");

        await().atMost(WAIT).until(() -> alarms(device, "ACTIVE"), list -> list.size() == 1);
        assertThat(api.get("/api/alarms?deviceId=" + device.id()).json()).as("the cleared one and a new one").hasSize(2);
    }

    @Test
    void aNodeThatFailsRoutesOnFailureAndTheChainKeepsWorking() {
        ApiClient.Device device = newDevice();
        long failuresBefore = stats.getNodeFailures();

        // a string temperature cannot be compared with the threshold: the alarm nodes throw
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": \"hot\"}").status()).isEqualTo(200);
        await().atMost(WAIT).until(() -> stats.getNodeFailures() >= failuresBefore + 1);
        api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 45}");

        JsonNode active = await().atMost(WAIT).until(() -> alarms(device, "ACTIVE"), list -> list.size() == 1);
        assertThat(active.get(0).get("type").stringValue()).isEqualTo("High Temperature");
        assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().get("temperature").get("value").longValue())
                .isEqualTo(45);
    }

    @Test
    void alarmsCanBeListedForAllDevicesByStatus() {
        ApiClient.Device device = newDevice();
        api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 50}");

        await().atMost(WAIT).until(() -> api.get("/api/alarms?status=ACTIVE").json(),
                list -> list.valueStream().anyMatch(a -> a.get("deviceId").stringValue().equals(device.id().toString())));

        assertThat(api.get("/api/alarms?status=ACTIVE").json().valueStream().map(a -> a.get("status").stringValue()))
                .containsOnly("ACTIVE");
    }

    private JsonNode alarms(ApiClient.Device device, String status) {
        ApiClient.Response response = api.get("/api/alarms?deviceId=" + device.id() + "&status=" + status);
        assertThat(response.status()).isEqualTo(200);
        return response.json();
    }
}
