package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The console's data over HTTP, as its page reads it: the views, the event stream, chain validation, Prometheus. */
class ConsoleApiEndToEndTest extends EndToEndTest {

    @Test
    void theDeviceViewHasEachDevicesLatestValuesAndLastActivity() {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"ts\": 1700000000000, \"values\": {\"temperature\": 21.5}}")
                .status()).isEqualTo(200);

        JsonNode row = deviceRow(api.get("/api/console/devices").json(), device);

        assertThat(row.get("latest").get("temperature").get("value").doubleValue()).isEqualTo(21.5);
        assertThat(row.get("lastActivityTs").longValue()).isEqualTo(1700000000000L);
        assertThat(row.get("type").stringValue()).isEqualTo("thermostat");
    }

    @Test
    void theActorViewPlacesTheDeviceActorUnderTheTenantWithItsNameAndShowsEveryDispatcher() {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 20}").status()).isEqualTo(200);

        JsonNode actors = api.get("/api/console/actors").json();

        assertThat(actors.get("actors").get(0).get("id").stringValue()).isEqualTo("APP");
        JsonNode deviceActor = find(actors.get("actors"), "id", "DEVICE|" + device.id());
        assertThat(deviceActor.get("depth").intValue()).isEqualTo(2);
        assertThat(deviceActor.get("label").stringValue()).startsWith(getClass().getSimpleName() + "-device-");
        assertThat(deviceActor.get("actorType").stringValue()).isEqualTo("DeviceActor");
        assertThat(find(actors.get("actors"), "actorType", "RuleNodeActor").get("depth").intValue()).isEqualTo(3);
        for (String dispatcher : List.of("app", "tenant", "device", "rule")) {
            JsonNode row = find(actors.get("dispatchers"), "name", dispatcher);
            assertThat(row.get("messagesPerSecond").doubleValue()).isGreaterThanOrEqualTo(0);
            assertThat(row.get("threads").intValue()).isGreaterThanOrEqualTo(0);
        }
        assertThat(actors.get("count").intValue()).isEqualTo(actors.get("actors").size());
        assertThat(actors.get("truncated").booleanValue()).isFalse();
    }

    @Test
    void theAlarmViewNamesTheDeviceOfEachAlarm() {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 45}").status()).isEqualTo(200);

        JsonNode alarms = api.get("/api/console/alarms").json();

        JsonNode alarm = find(alarms.get("alarms"), "deviceId", device.id().toString());
        assertThat(alarm.get("deviceName").stringValue()).startsWith(getClass().getSimpleName() + "-device-");
        assertThat(alarm.get("status").stringValue()).isEqualTo("ACTIVE");
        assertThat(alarms.get("active").longValue()).isPositive();
    }

    @Test
    void validationListsEveryErrorWithItsPathWithoutStoringAnything() {
        String chain = "{\"nodes\": [{\"id\": \"a\", \"type\": \"filter\", \"configuration\": {\"condition\": \"data.t >\"}}],"
                + " \"connections\": [{\"from\": \"a\", \"to\": \"nowhere\", \"relation\": \"True\"}]}";

        JsonNode invalid = api.post("/api/console/rule-chains/validate", chain).json();
        JsonNode valid = api.post("/api/console/rule-chains/validate",
                "{\"nodes\": [{\"id\": \"a\", \"type\": \"log\"}], \"connections\": []}").json();
        ApiClient.Response malformed = api.post("/api/console/rule-chains/validate", "{\"nodes\": [");

        assertThat(invalid.get("valid").booleanValue()).isFalse();
        assertThat(invalid.get("errors").toString()).contains("nodes[0].configuration.condition: cannot parse SpEL expression",
                "connections[0].to: no node has id 'nowhere'");
        assertThat(valid.get("valid").booleanValue()).isTrue();
        assertThat(valid.get("errors").size()).isZero();
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().get("detail").stringValue()).contains("line 1");
        assertThat(api.getWithoutCredentials("/api/console/devices").status()).isEqualTo(401);
    }

    @Test
    void theEventStreamSendsEveryViewAtOnceThenADeviceViewWhenATelemetryValueChanges() throws Exception {
        ApiClient.Device device = newDevice();
        List<String> lines = new CopyOnWriteArrayList<>();
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/console/events"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8)))
                .header("Accept", "text/event-stream").build();
        HttpResponse<java.io.InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                lines.add("closed: " + e);
            }
        }, "console-stream-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> lines.containsAll(List.of("event:devices", "event:alarms", "event:actors")));
            assertThat(lines).contains("retry:1000");

            assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 17.25}").status()).isEqualTo(200);

            await().atMost(Duration.ofSeconds(10)).until(() -> lines.stream()
                    .anyMatch(line -> line.startsWith("data:") && line.contains(device.id().toString()) && line.contains("17.25")));
            // a view that did not change is not sent again (nothing raised or cleared an alarm meanwhile)
            assertThat(lines.stream().filter("event:alarms"::equals)).hasSize(1);
        } finally {
            response.body().close();
        }
    }

    @Test
    void prometheusScrapesTheActorAndApplicationMetersWithCredentialsOnly() {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 20}").status()).isEqualTo(200);

        assertThat(api.getWithoutCredentials("/actuator/prometheus").status()).isEqualTo(401);
        ApiClient.Response scrape = api.get("/actuator/prometheus");

        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body()).contains("tb_actors_messages_processing_seconds_count{", "tb_actors_mailbox_backlog_messages{",
                "sample_iot_device_messages_total{");
    }

    private static JsonNode deviceRow(JsonNode view, ApiClient.Device device) {
        return find(view.get("devices"), "id", device.id().toString());
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode element : array) {
            if (element.has(field) && value.equals(element.get(field).stringValue())) {
                return element;
            }
        }
        throw new AssertionError("no element with " + field + " = " + value + " in " + array);
    }
}
