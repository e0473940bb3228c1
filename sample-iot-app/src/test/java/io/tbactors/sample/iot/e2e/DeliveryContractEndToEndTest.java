package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.sample.iot.transport.mqtt.MqttDeviceServer;
import io.tbactors.sample.iot.stats.IotStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The device API's promise: a 200 means the root rule chain has finished with every reading of the request and
 * stored it; a failing chain answers 500 with the reason; work in flight is bounded per device and per tenant, with
 * 429 and {@code Retry-After} beyond the bound, and health reports the overload. The rule engine runs on one thread
 * here, which a test holds to keep readings in flight.
 */
@TestPropertySource(properties = {
    "tb.actors.dispatchers.rule.type=single",
    "sample.device-api.max-in-flight-per-device=3",
    "sample.device-api.max-in-flight-per-tenant=5"
})
class DeliveryContractEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    DefaultTbActorSystem actorSystem;

    @Autowired
    IotStats stats;

    @Autowired
    MqttDeviceServer server;

    private HeldDispatcher held;

    @AfterEach
    void releaseTheRuleEngine() {
        if (held != null) {
            held.close();
        }
    }

    @Test
    void a200ComesOnlyOnceTheRootChainHasStoredTheReading() throws Exception {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"warm\": 1}").status()).isEqualTo(200);
        long acceptedBefore = stats.getDeviceAccepted();
        holdTheRuleEngine();

        CompletableFuture<ApiClient.Response> response = postAsync(device, "{\"ts\": 5000, \"values\": {\"seq\": 1}}");

        // the device actor has handed the reading to the rule engine, which cannot run: no answer yet
        await().atMost(WAIT).until(() -> stats.getDeviceAccepted() > acceptedBefore);
        await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> !response.isDone());

        held.close();
        assertThat(response.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        // no waiting: answered means stored
        JsonNode latest = api.get(TelemetryEndToEndTest.latestPath(device)).json();
        assertThat(latest.get("seq").get("ts").longValue()).isEqualTo(5000);
    }

    @Test
    void aChainThatFailsOnTheReadingAnswers500NamingTheNodeAndTheReason() {
        JsonNode root = api.get("/api/rule-chains").json().valueStream()
                .filter(chain -> chain.get("root").booleanValue()).findFirst().orElseThrow();
        String path = "/api/rule-chains/" + root.get("id").stringValue();
        JsonNode original = api.get(path).json();
        assertThat(api.put(path, "{\"nodes\": [{\"id\": \"wrong-save\", \"type\": \"save-attributes\"}]}").status())
                .isEqualTo(200);
        try {
            ApiClient.Device device = newDevice();

            ApiClient.Response failed = api.postAsDevice(device.token(), "telemetry", "{\"t\": 1}");

            assertThat(failed.status()).isEqualTo(500);
            assertThat(failed.json().get("detail").stringValue()).contains("wrong-save", "expects a POST_ATTRIBUTES_REQUEST");
        } finally {
            assertThat(api.put(path, original.toString()).status()).isEqualTo(200);
        }
    }

    @Test
    void readingsBeyondTheDeviceBoundGet429WithRetryAfterAndTheAcceptedOnesAreStored() throws Exception {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"warm\": 1}").status()).isEqualTo(200);
        holdTheRuleEngine();

        CompletableFuture<ApiClient.Response> two = postAsync(device,
                "[{\"ts\": 1, \"values\": {\"seq\": 1}}, {\"ts\": 2, \"values\": {\"seq\": 2}}]");
        CompletableFuture<ApiClient.Response> one = postAsync(device, "{\"ts\": 3, \"values\": {\"seq\": 3}}");
        await().atMost(WAIT).until(() -> inFlight() == 3);

        ApiClient.Response refused = api.postAsDevice(device.token(), "telemetry", "{\"ts\": 4, \"values\": {\"seq\": 4}}");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(refused.json().get("detail").stringValue()).contains("sample.device-api.max-in-flight-per-device", "3");
        ApiClient.Response health = api.get("/actuator/health");
        assertThat(health.status()).isEqualTo(503);
        assertThat(health.json().get("status").stringValue()).isEqualTo("OVERLOADED");
        assertThat(health.json().get("components").get("deviceApi").get("status").stringValue()).isEqualTo("OVERLOADED");

        held.close();
        assertThat(two.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(one.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        JsonNode history = api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq").json();
        assertThat(history.get("seq").valueStream().map(v -> v.get("value").longValue())).containsExactly(1L, 2L, 3L);
        await().atMost(WAIT).until(() -> inFlight() == 0);
    }

    @Test
    void readingsBeyondTheTenantBoundGet429ThoughTheirDeviceHasRoom() throws Exception {
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            devices.add(newDevice());
            assertThat(api.postAsDevice(devices.get(i).token(), "telemetry", "{\"warm\": 1}").status()).isEqualTo(200);
        }
        holdTheRuleEngine();

        CompletableFuture<ApiClient.Response> first = postAsync(devices.get(0), "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]");
        CompletableFuture<ApiClient.Response> second = postAsync(devices.get(1), "[{\"a\": 1}, {\"a\": 2}]");
        await().atMost(WAIT).until(() -> inFlight() == 5);

        ApiClient.Response refused = api.postAsDevice(devices.get(2).token(), "telemetry", "{\"a\": 1}");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        assertThat(refused.json().get("detail").stringValue()).contains("sample.device-api.max-in-flight-per-tenant", "5");
        held.close();
        assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(second.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
    }

    @Test
    void aRequestWithMoreValuesThanTheDeviceBoundGets413NamingTheBound() {
        ApiClient.Device device = newDevice();

        ApiClient.Response refused = api.postAsDevice(device.token(), "telemetry", "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}, {\"a\": 4}]");

        assertThat(refused.status()).isEqualTo(413);
        assertThat(refused.json().get("detail").stringValue()).contains("4 values", "4 reading(s)", "at most 3",
                "sample.device-api.max-in-flight-per-device");
    }

    @Test
    void anMqttMessageWithMoreValuesThanTheDeviceBoundEndsTheConnectionAndNothingOfItIsStored() throws Exception {
        ApiClient.Device device = newDevice();

        try (MqttDevice mqtt = MqttDevice.connect(server.getPort(), device.token(), 10)) {
            mqtt.publish(MqttDevice.TELEMETRY, "{\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4}", 1);

            assertThat(mqtt.lost().await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the server closed the connection").isTrue();
        }
        assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().has("a")).isFalse();
        assertThat(inFlight()).isZero();
    }

    private long inFlight() {
        return api.get("/actuator/health").json().get("components").get("deviceApi").get("details").get("inFlightValues")
                .longValue();
    }

    private CompletableFuture<ApiClient.Response> postAsync(ApiClient.Device device, String body) {
        return CompletableFuture.supplyAsync(() -> api.postAsDevice(device.token(), "telemetry", body));
    }

    private void holdTheRuleEngine() throws InterruptedException {
        held = HeldDispatcher.hold(actorSystem, "rule");
    }
}
