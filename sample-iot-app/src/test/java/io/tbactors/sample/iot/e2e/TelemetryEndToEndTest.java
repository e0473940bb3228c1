package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Collections;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class TelemetryEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void keyValueTelemetryOfEveryValueTypeIsReadBackAsLatestAndHistory() {
        ApiClient.Device device = newDevice();

        ApiClient.Response posted = api.postAsDevice(device.token(),
                "telemetry", "{\"temperature\": 21.5, \"count\": 7, \"online\": true, \"label\": \"lab\", \"location\": {\"lat\": 1.5}}");

        assertThat(posted.status()).isEqualTo(200);
        JsonNode latest = await().atMost(WAIT).until(() -> api.get(latestPath(device)).json(), json -> json.size() == 5);
        assertThat(latest.get("temperature").get("value").doubleValue()).isEqualTo(21.5);
        assertThat(latest.get("count").get("value").isIntegralNumber()).isTrue();
        assertThat(latest.get("count").get("value").longValue()).isEqualTo(7);
        assertThat(latest.get("online").get("value").booleanValue()).isTrue();
        assertThat(latest.get("label").get("value").stringValue()).isEqualTo("lab");
        assertThat(latest.get("location").get("value").get("lat").doubleValue()).isEqualTo(1.5);
        long ts = latest.get("temperature").get("ts").longValue();
        JsonNode history = api.get(historyPath(device) + "?keys=temperature,label").json();
        assertThat(history.get("temperature")).hasSize(1);
        assertThat(history.get("temperature").get(0).get("ts").longValue()).isEqualTo(ts);
        assertThat(history.get("label").get(0).get("value").stringValue()).isEqualTo("lab");
    }

    @Test
    void telemetryWithItsOwnTimestampIsStoredAtThatTime() {
        ApiClient.Device device = newDevice();

        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"ts\": 1700000000000, \"values\": {\"pressure\": 1013}}")
                .status()).isEqualTo(200);

        JsonNode latest = await().atMost(WAIT).until(() -> api.get(latestPath(device)).json(), json -> json.has("pressure"));
        assertThat(latest.get("pressure").get("ts").longValue()).isEqualTo(1700000000000L);
        assertThat(latest.get("pressure").get("value").longValue()).isEqualTo(1013);
    }

    @Test
    void anArrayOfTimedReadingsBecomesHistoryInTimeOrderAndTheNewestIsLatest() {
        ApiClient.Device device = newDevice();

        ApiClient.Response posted = api.postAsDevice(device.token(), "telemetry",
                "[{\"ts\": 3000, \"values\": {\"level\": 3}}, {\"ts\": 1000, \"values\": {\"level\": 1}},"
                        + " {\"ts\": 2000, \"values\": {\"level\": 2}}]");

        assertThat(posted.status()).isEqualTo(200);
        JsonNode history = await().atMost(WAIT).until(() -> api.get(historyPath(device) + "?keys=level").json(),
                json -> json.has("level") && json.get("level").size() == 3);
        assertThat(history.get("level").valueStream().map(v -> v.get("value").longValue())).containsExactly(1L, 2L, 3L);
        JsonNode latest = api.get(latestPath(device)).json();
        assertThat(latest.get("level").get("ts").longValue()).isEqualTo(3000);
        JsonNode window = api.get(historyPath(device) + "?keys=level&startTs=1500&endTs=2500").json();
        assertThat(window.get("level").valueStream().map(v -> v.get("ts").longValue())).containsExactly(2000L);
    }

    @Test
    void anOlderReadingGoesToHistoryButDoesNotReplaceTheLatestValue() {
        ApiClient.Device device = newDevice();

        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 5000, \"values\": {\"rpm\": 50}}");
        api.postAsDevice(device.token(), "telemetry", "{\"ts\": 4000, \"values\": {\"rpm\": 40}}");

        await().atMost(WAIT).until(() -> api.get(historyPath(device) + "?keys=rpm").json(),
                json -> json.has("rpm") && json.get("rpm").size() == 2);
        JsonNode latest = api.get(latestPath(device)).json();
        assertThat(latest.get("rpm").get("value").longValue()).isEqualTo(50);
    }

    @Test
    void postedAttributesAreStoredAsTheDevicesAttributes() {
        ApiClient.Device device = newDevice();

        assertThat(api.postAsDevice(device.token(), "attributes", "{\"firmware\": \"1.2.0\", \"slots\": 4}").status())
                .isEqualTo(200);

        JsonNode attributes = await().atMost(WAIT).until(() -> api.get("/api/devices/" + device.id() + "/attributes").json(),
                json -> json.size() == 2);
        assertThat(attributes.get("firmware").get("value").stringValue()).isEqualTo("1.2.0");
        assertThat(attributes.get("slots").get("value").longValue()).isEqualTo(4);
        assertThat(api.get(latestPath(device)).json().isEmpty()).as("attributes are not telemetry").isTrue();
    }

    @Test
    void createdDevicesAreListedAndReadableById() {
        ApiClient.Device device = newDevice();

        JsonNode one = api.get("/api/devices/" + device.id()).json();
        JsonNode all = api.get("/api/devices").json();

        assertThat(one.get("accessToken").stringValue()).isEqualTo(device.token());
        assertThat(one.get("type").stringValue()).isEqualTo("thermostat");
        assertThat(all.valueStream().map(d -> d.get("id").stringValue())).contains(device.id().toString());
    }

    @Test
    void aDeletedDeviceIsGoneItsTokenIsRefusedAndItsActorStops() {
        ApiClient.Device device = newDevice();
        api.postAsDevice(device.token(), "telemetry", "{\"t\": 1}");
        await().atMost(WAIT).until(() -> api.get("/actuator/tbactors/DEVICE%7C" + device.id()).status() == 200);

        assertThat(api.delete("/api/devices/" + device.id()).status()).isEqualTo(204);

        assertThat(api.get("/api/devices/" + device.id()).status()).isEqualTo(404);
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"t\": 2}").status()).as("token evicted from the cache")
                .isEqualTo(401);
        await().atMost(WAIT).until(() -> api.get("/actuator/tbactors/DEVICE%7C" + device.id()).status() == 404);
        assertThat(api.delete("/api/devices/" + device.id()).status()).isEqualTo(404);
    }

    @Test
    void aFullBodyOf8000ReadingsIsAnswered200OnlyWhenAllAreStored() {
        ApiClient.Device device = newDevice();
        // the densest telemetry there is: 8 bytes a reading, each stamped by the server with its own time
        String json = "[" + String.join(",", Collections.nCopies(8000, "{\"n\":1}")) + "]";
        assertThat(json.length()).as("fits the 64 KB limit").isLessThanOrEqualTo(64 * 1024);

        ApiClient.Response response = api.postAsDevice(device.token(), "telemetry", json);

        assertThat(response.status()).isEqualTo(200);
        JsonNode history = api.get(historyPath(device) + "?keys=n&limit=10000").json();
        assertThat(history.get("n")).hasSize(8000);
    }

    static String latestPath(ApiClient.Device device) {
        return "/api/devices/" + device.id() + "/telemetry/latest";
    }

    static String historyPath(ApiClient.Device device) {
        return "/api/devices/" + device.id() + "/telemetry";
    }
}
