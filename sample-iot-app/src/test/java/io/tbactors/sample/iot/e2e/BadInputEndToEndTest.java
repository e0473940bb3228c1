package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class BadInputEndToEndTest extends EndToEndTest {

    @Test
    void aMalformedBodyIs400WithWhereTheJsonBreaks() {
        ApiClient.Device device = newDevice();

        ApiClient.Response response = api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 21,");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("detail").stringValue()).startsWith("Malformed JSON at line 1, column");
        assertThat(response.json().get("status").intValue()).isEqualTo(400);
    }

    @Test
    void anEmptyBodyIs400() {
        ApiClient.Device device = newDevice();

        assertThat(api.postAsDevice(device.token(), "telemetry", "").status()).isEqualTo(400);
        assertThat(api.postAsDevice(device.token(), "attributes", "  ").json().get("detail").stringValue())
                .isEqualTo("Request body is empty");
        assertThat(api.postAsDevice(device.token(), "telemetry", "{}").json().get("detail").stringValue())
                .isEqualTo("Body has no key-value pairs");
        assertThat(api.postAsDevice(device.token(), "telemetry", "[]").status()).isEqualTo(400);
    }

    @Test
    void aBodyOfTheWrongShapeIs400WithTheOffendingKey() {
        ApiClient.Device device = newDevice();

        assertThat(api.postAsDevice(device.token(), "telemetry", "42").json().get("detail").stringValue())
                .contains("must be a JSON object");
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"a\": null}").json().get("detail").stringValue())
                .isEqualTo("'a' must be a number, boolean, string or JSON object, got null");
        assertThat(api.postAsDevice(device.token(), "telemetry", "[{\"ts\": \"soon\", \"values\": {\"a\": 1}}]").json()
                .get("detail").stringValue()).startsWith("[0].'ts' must be a non-negative integer");
        assertThat(api.postAsDevice(device.token(), "attributes", "[{\"a\": 1}]").status()).isEqualTo(400);
    }

    @Test
    void anUnknownAccessTokenIs401() {
        ApiClient.Response response = api.postAsDevice("no-such-token", "telemetry", "{\"temperature\": 21}");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("detail").stringValue()).isEqualTo("Unknown device access token");
        assertThat(api.postAsDevice("no-such-token", "attributes", "{\"a\": 1}").status()).isEqualTo(401);
    }

    @Test
    void aBodyOverTheLimitIs413AndOneUnderItIsAccepted() {
        ApiClient.Device device = newDevice();
        byte[] over = paddedBody(64 * 1024 + 1);
        byte[] under = paddedBody(60 * 1024);

        ApiClient.Response tooLarge = api.postBytesAsDevice(device.token(), "telemetry", over);
        ApiClient.Response accepted = api.postBytesAsDevice(device.token(), "telemetry", under);

        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.json().get("detail").stringValue()).contains("64 KB");
        assertThat(accepted.status()).isEqualTo(200);
    }

    @Test
    void theManagementApiWithoutOrWithWrongCredentialsIs401() {
        ApiClient.Response none = api.getWithoutCredentials("/api/devices");
        ApiClient.Response wrong = api.getWithCredentials("/api/devices", ApiClient.ADMIN, "wrong");
        ApiClient.Response actuator = api.getWithoutCredentials("/actuator/metrics");

        assertThat(none.status()).isEqualTo(401);
        assertThat(none.json().get("detail").stringValue()).contains("credentials");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(actuator.status()).isEqualTo(401);
        assertThat(api.getWithoutCredentials("/actuator/health").status()).isEqualTo(200);
        assertThat(api.get("/actuator/metrics").status()).isEqualTo(200);
    }

    @Test
    void unknownIdsAre404() {
        String unknown = UUID.randomUUID().toString();

        assertThat(api.get("/api/devices/" + unknown).status()).isEqualTo(404);
        assertThat(api.get("/api/devices/" + unknown + "/telemetry/latest").status()).isEqualTo(404);
        assertThat(api.get("/api/devices/" + unknown + "/telemetry?keys=a").status()).isEqualTo(404);
        assertThat(api.get("/api/alarms?deviceId=" + unknown).status()).isEqualTo(404);
        assertThat(api.get("/api/rule-chains/" + unknown).json().get("detail").stringValue()).contains(unknown);
    }

    @Test
    void invalidParametersAre400() {
        ApiClient.Device device = newDevice();

        assertThat(api.get("/api/devices/not-a-uuid").status()).isEqualTo(400);
        assertThat(api.get("/api/alarms?status=SOMETIMES").status()).isEqualTo(400);
        assertThat(api.get(TelemetryEndToEndTest.historyPath(device) + "?startTs=10&endTs=5").status()).isEqualTo(400);
        assertThat(api.post("/api/devices", "{\"name\": \" \"}").json().get("detail").stringValue()).contains("name");
    }

    @Test
    void aDuplicateDeviceNameIs409() {
        api.createDevice("twin");

        ApiClient.Response second = api.post("/api/devices", "{\"name\": \"twin\"}");

        assertThat(second.status()).isEqualTo(409);
        assertThat(second.json().get("detail").stringValue()).contains("twin");
    }

    private static byte[] paddedBody(int size) {
        String prefix = "{\"note\": \"";
        String suffix = "\"}";
        char[] padding = new char[size - prefix.length() - suffix.length()];
        Arrays.fill(padding, 'x');
        return (prefix + new String(padding) + suffix).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
