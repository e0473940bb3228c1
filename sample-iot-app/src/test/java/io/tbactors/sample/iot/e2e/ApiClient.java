package io.tbactors.sample.iot.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real HTTP client for the end-to-end tests: the JDK's, with basic credentials for the management API.
 */
final class ApiClient {

    static final String ADMIN = "admin";
    static final String PASSWORD = "admin";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    ApiClient(int port) {
        this.base = "http://localhost:" + port;
    }

    /** @return the base address, {@code http://localhost:<port>} */
    String base() {
        return base;
    }

    /** A response: status, headers and body (parsed when it is JSON). */
    record Response(int status, HttpHeaders headers, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    Response get(String path) {
        return send(request(path).GET(), true);
    }

    /**
     * Reads one meter of the app's {@code /actuator/metrics}, for a sampler that must not stop on a missed sample.
     *
     * @param meterAndTags e.g. {@code jvm.memory.used?tag=area:heap}
     * @return its first measurement, or -1 when it could not be read
     */
    double metric(String meterAndTags) {
        try {
            Response response = get("/actuator/metrics/" + meterAndTags);
            if (response.status() == 200) {
                return response.json().get("measurements").get(0).get("value").doubleValue();
            }
        } catch (RuntimeException missed) {
            // under load a sample may be missed: the caller takes the next one
        }
        return -1;
    }

    Response getWithoutCredentials(String path) {
        return send(request(path).GET(), false);
    }

    Response getWithCredentials(String path, String user, String password) {
        return send(request(path).GET().header("Authorization", basic(user, password)), false);
    }

    Response post(String path, String body) {
        return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)), true);
    }

    Response delete(String path) {
        return send(request(path).DELETE(), true);
    }

    Response put(String path, String body) {
        return send(request(path).PUT(HttpRequest.BodyPublishers.ofString(body)), true);
    }

    /** Posts as a device: no credentials, the token is in the path. */
    Response postAsDevice(String token, String kind, String body) {
        return postBytesAsDevice(token, kind, body.getBytes(StandardCharsets.UTF_8));
    }

    Response postBytesAsDevice(String token, String kind, byte[] body) {
        return send(request("/api/v1/" + token + "/" + kind).POST(HttpRequest.BodyPublishers.ofByteArray(body)), false);
    }

    /** Creates a device through the management API and returns its id and token. */
    Device createDevice(String name) {
        Response response = post("/api/devices", "{\"name\": \"" + name + "\", \"type\": \"thermostat\"}");
        if (response.status() != 201) {
            throw new IllegalStateException("device creation answered " + response);
        }
        JsonNode json = response.json();
        return new Device(UUID.fromString(json.get("id").stringValue()), json.get("accessToken").stringValue());
    }

    record Device(UUID id, String token) {
    }

    static String json(Object value) {
        return JSON.writeValueAsString(value);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json");
    }

    private Response send(HttpRequest.Builder builder, boolean authenticated) {
        if (authenticated) {
            builder.header("Authorization", basic(ADMIN, PASSWORD));
        }
        try {
            HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException("request failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
