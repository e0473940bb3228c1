package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.core.userdetails.UserDetailsService;
import tools.jackson.databind.JsonNode;

class ActuatorEndToEndTest extends EndToEndTest {

    @Autowired
    UserDetailsService users;

    @Test
    void aSignInKeepsTheCredentialInPlainFormSoNoRequestPaysForAPasswordHash() {
        assertThat(api.get("/actuator/health").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health").status()).isEqualTo(200);

        // Spring Security upgrades a {noop} password to bcrypt at the first sign-in unless told otherwise, and then
        // every basic-auth request (a metrics scrape, say) costs a bcrypt check, about 0.1 s of CPU
        assertThat(users.loadUserByUsername(ApiClient.ADMIN).getPassword()).startsWith("{noop}");
        assertThat(api.getWithCredentials("/actuator/metrics", ApiClient.ADMIN, "wrong").status()).isEqualTo(401);
    }

    @Test
    void healthIsPublicAndShowsTheActorsComponentToTheAdmin() {
        ApiClient.Response anonymous = api.getWithoutCredentials("/actuator/health");
        ApiClient.Response admin = api.get("/actuator/health");

        assertThat(anonymous.status()).isEqualTo(200);
        assertThat(anonymous.json().get("status").stringValue()).isEqualTo("UP");
        assertThat(anonymous.json().has("components")).isFalse();
        assertThat(admin.json().get("components").get("actors").get("status").stringValue()).isEqualTo("UP");
    }

    @Test
    void theDispatchersAndActorsEndpointsNeedCredentialsAndShowTheActorTree() {
        ApiClient.Device device = newDevice();
        api.postAsDevice(device.token(), "telemetry", "{\"t\": 1}");

        assertThat(api.getWithoutCredentials("/actuator/tbactorsdispatchers").status()).isEqualTo(401);
        assertThat(api.getWithoutCredentials("/actuator/tbactors").status()).isEqualTo(401);
        JsonNode dispatchers = api.get("/actuator/tbactorsdispatchers").json();
        assertThat(dispatchers.toString()).contains("\"app\"", "\"tenant\"", "\"device\"", "\"rule\"");
        JsonNode actors = await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/actuator/tbactors").json(),
                json -> json.get("byType").has("DeviceActor"));
        assertThat(actors.get("rootActor").stringValue()).isEqualTo("APP");
        assertThat(actors.get("byDispatcher").get("tenant").has("TenantActor")).isTrue();
        assertThat(actors.get("byDispatcher").get("rule").has("RuleNodeActor")).isTrue();
        assertThat(api.get("/actuator/tbactors/DEVICE%7C" + device.id()).status()).isEqualTo(200);
    }

    @Test
    void theRuleChainsEndpointShowsEachNodesFiguresAndItsDebugEventsOnceSwitchedOn() {
        ApiClient.Device device = newDevice();
        api.postAsDevice(device.token(), "telemetry", "{\"t\": 1}");
        String rootChain = api.get("/api/rule-chains").json().valueStream().filter(chain -> chain.get("root").booleanValue())
                .findFirst().orElseThrow().get("id").stringValue();

        assertThat(api.getWithoutCredentials("/actuator/rulechains").status()).isEqualTo(401);
        JsonNode chains = await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/actuator/rulechains").json(),
                json -> json.has(rootChain) && json.get(rootChain).has("save-telemetry"));
        JsonNode save = chains.get(rootChain).get("save-telemetry");
        assertThat(save.get("type").stringValue()).isEqualTo("save-timeseries");
        assertThat(save.get("in").longValue()).isPositive();
        assertThat(save.get("out").get("Success").longValue()).isPositive();
        assertThat(api.post("/actuator/rulechains/" + rootChain + "/save-telemetry", "{\"debug\": true}").status()).isEqualTo(200);

        api.postAsDevice(device.token(), "telemetry", "{\"t\": 2}");

        JsonNode events = api.get("/actuator/rulechains/" + rootChain).json().get("save-telemetry").get("debugEvents");
        assertThat(events.valueStream().map(event -> event.get("direction").stringValue() + " " + event.get("data").get("t")))
                .contains("IN 2", "OUT 2");
        assertThat(api.get("/actuator/metrics/tb.rule.node.messages.in").status()).isEqualTo(200);
    }

    @Test
    void theApplicationsMessageCountersAreMeters() {
        ApiClient.Device device = newDevice();
        api.postAsDevice(device.token(), "telemetry", "{\"t\": 1}");

        JsonNode meter = await().atMost(Duration.ofSeconds(10)).until(
                () -> api.get("/actuator/metrics/sample.iot.device.messages?tag=result:accepted").json(),
                json -> json.has("measurements") && json.get("measurements").get(0).get("value").doubleValue() >= 1);
        assertThat(meter.get("name").stringValue()).isEqualTo("sample.iot.device.messages");
        assertThat(api.get("/actuator/metrics/sample.iot.rule.engine.messages").status()).isEqualTo(200);
    }

    @Test
    void theDeviceApiIsTimedByItsOwnMeterAndNotByHttpServerRequests() {
        ApiClient.Device device = newDevice();
        double before = count("/actuator/metrics/sample.iot.device.api.requests?tag=outcome:SUCCESS");
        double unknownBefore = count("/actuator/metrics/http.server.requests?tag=uri:UNKNOWN");

        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"t\": 1}").status()).isEqualTo(200);
        assertThat(api.postAsDevice("no-such-token", "telemetry", "{\"t\": 1}").status()).isEqualTo(401);

        assertThat(count("/actuator/metrics/sample.iot.device.api.requests?tag=outcome:SUCCESS")).isEqualTo(before + 1);
        assertThat(count("/actuator/metrics/sample.iot.device.api.requests?tag=outcome:CLIENT_ERROR")).isPositive();
        assertThat(count("/actuator/metrics/http.server.requests?tag=uri:UNKNOWN")).as("no device post observed")
                .isEqualTo(unknownBefore);
    }

    /** @return the COUNT statistic of a meter, 0 when it has no such series yet */
    private double count(String path) {
        ApiClient.Response response = api.get(path);
        if (response.status() == 404) {
            return 0;
        }
        for (JsonNode measurement : response.json().get("measurements")) {
            if ("COUNT".equals(measurement.get("statistic").stringValue())) {
                return measurement.get("value").doubleValue();
            }
        }
        return 0;
    }
}
