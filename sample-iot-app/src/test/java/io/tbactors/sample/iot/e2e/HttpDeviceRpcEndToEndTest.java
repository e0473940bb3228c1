package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.transport.http.DeviceLongPolls;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * ThingsBoard's two-way HTTP device API through a real HTTP client: the RPC long poll and the device's answer, the
 * attribute request, the attribute-update long poll and client-side RPC, with ThingsBoard's paths, JSON and statuses.
 */
class HttpDeviceRpcEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    IotStats stats;

    @Autowired
    DeviceLongPolls longPolls;

    @Test
    void aDevicePollingForRpcGetsTheRequestAndItsAnswerReachesTheCaller() throws Exception {
        ApiClient.Device device = newDevice();
        CompletableFuture<ApiClient.Response> poll = CompletableFuture.supplyAsync(
                () -> api.getWithoutCredentials("/api/v1/" + device.token() + "/rpc?timeout=15000"));
        CompletableFuture<ApiClient.Response> call = CompletableFuture.supplyAsync(() -> api.post(
                "/api/rpc/twoway/" + device.id(), "{\"method\": \"getTemperature\", \"params\": {\"unit\": \"C\"}}"));

        ApiClient.Response polled = poll.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(polled.status()).isEqualTo(200);
        JsonNode request = polled.json();
        assertThat(request.get("method").stringValue()).isEqualTo("getTemperature");
        assertThat(request.get("params").get("unit").stringValue()).isEqualTo("C");

        ApiClient.Response answered = api.postAsDevice(device.token(), "rpc/" + request.get("id").intValue(),
                "{\"temperature\": 21.5}");
        assertThat(answered.status()).isEqualTo(200);
        ApiClient.Response response = call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("temperature").doubleValue()).isEqualTo(21.5);
    }

    @Test
    void aPollWhoseClientDisconnectsGivesItsSlotBackAtOnceAndTheNextRequestGoesToTheNextPoll() throws Exception {
        // the closed connection is seen in the kernel's tables (Linux); elsewhere a poll keeps its slot to its timeout
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "needs Linux's /proc/net/tcp");
        ApiClient.Device device = newDevice();
        int before = longPolls.getWaiting();
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream().write(("GET /api/v1/" + device.token() + "/rpc?timeout=30000 HTTP/1.1\r\n"
                    + "Host: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            await().atMost(WAIT).until(() -> longPolls.getWaiting() == before + 1);
        }
        // the client is gone: its slot and its session with the device's actor go long before the poll's 30 s
        await().atMost(Duration.ofSeconds(5)).until(() -> longPolls.getWaiting() == before);

        // a request sent now is not handed to the closed poll (where it would be lost): the next poll gets it
        CompletableFuture<ApiClient.Response> call = CompletableFuture.supplyAsync(() -> api.post(
                "/api/rpc/oneway/" + device.id(), "{\"method\": \"setLed\", \"params\": 1, \"timeout\": 15000}"));
        ApiClient.Response polled = null;
        for (int attempt = 0; attempt < 15 && (polled == null || polled.status() != 200); attempt++) {
            polled = api.getWithoutCredentials("/api/v1/" + device.token() + "/rpc?timeout=1000");
        }
        assertThat(polled.status()).isEqualTo(200);
        assertThat(polled.json().get("method").stringValue()).isEqualTo("setLed");
        assertThat(call.get(WAIT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(200);
    }

    @Test
    void aPollNothingComesForEndsWithThingsBoardsRequestTimeout() {
        ApiClient.Device device = newDevice();
        ApiClient.Response polled = api.getWithoutCredentials("/api/v1/" + device.token() + "/rpc?timeout=200");

        assertThat(polled.status()).isEqualTo(408);
        assertThat(polled.json().get("detail").stringValue()).contains("within 200 ms");
    }

    @Test
    void aPollWithABadTimeoutOrAnUnknownTokenIsRefusedSayingWhy() {
        ApiClient.Device device = newDevice();
        ApiClient.Response bad = api.getWithoutCredentials("/api/v1/" + device.token() + "/rpc?timeout=soon");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("detail").stringValue()).contains("sample.device-api.long-poll-max-timeout");

        assertThat(api.getWithoutCredentials("/api/v1/no-such-token/rpc?timeout=100").status()).isEqualTo(401);
    }

    @Test
    void anAttributeRequestReturnsTheClientAndSharedAttributesAskedFor() {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "attributes", "{\"firmware\": \"2.0\", \"slots\": 2}").status())
                .isEqualTo(200);
        assertThat(api.post("/api/plugins/telemetry/DEVICE/" + device.id() + "/attributes/SHARED_SCOPE",
                "{\"interval\": 60}").status()).isEqualTo(200);

        ApiClient.Response response = api.getWithoutCredentials("/api/v1/" + device.token()
                + "/attributes?clientKeys=firmware&sharedKeys=interval");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("client").get("firmware").stringValue()).isEqualTo("2.0");
        assertThat(response.json().get("client").has("slots")).isFalse();
        assertThat(response.json().get("shared").get("interval").intValue()).isEqualTo(60);
    }

    @Test
    void aDevicePollingForAttributeUpdatesGetsTheSharedAttributesSetMeanwhile() throws Exception {
        ApiClient.Device device = newDevice();
        CompletableFuture<ApiClient.Response> poll = CompletableFuture.supplyAsync(
                () -> api.getWithoutCredentials("/api/v1/" + device.token() + "/attributes/updates?timeout=15000"));
        // the poll may subscribe after the first update: set it until the poll answers
        ApiClient.Response update = null;
        for (int attempt = 0; attempt < 100 && update == null; attempt++) {
            api.post("/api/plugins/telemetry/DEVICE/" + device.id() + "/attributes/SHARED_SCOPE", "{\"mode\": \"night\"}");
            try {
                update = poll.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException notYet) {
                // set again
            }
        }
        assertThat(update).isNotNull();
        assertThat(update.status()).isEqualTo(200);
        assertThat(update.json().get("mode").stringValue()).isEqualTo("night");
    }

    @Test
    void aClientSideRpcIsAnsweredByTheRootRuleChain() {
        ApiClient.Device device = newDevice();
        long before = System.currentTimeMillis();
        ApiClient.Response known = api.postAsDevice(device.token(), "rpc", "{\"method\": \"getCurrentTime\", \"params\": {}}");
        assertThat(known.status()).isEqualTo(200);
        assertThat(known.json().get("time").longValue()).isGreaterThanOrEqualTo(before);

        ApiClient.Response unknown = api.postAsDevice(device.token(), "rpc", "{\"method\": \"launch\", \"params\": {}}");
        assertThat(unknown.json().get("error").stringValue()).contains("No handler for method 'launch'", "getCurrentTime");
    }

    @Test
    void aClientSideRpcNothingInTheChainAnswersEndsWithRequestTimeoutAndIsCounted() {
        JsonNode root = api.get("/api/rule-chains").json().valueStream().filter(c -> c.get("root").booleanValue())
                .findFirst().orElseThrow();
        String rootId = root.get("id").stringValue();
        JsonNode original = api.get("/api/rule-chains/" + rootId).json();
        ObjectNode withoutReply = (ObjectNode) original.deepCopy();
        ArrayNode connections = (ArrayNode) withoutReply.get("connections");
        for (int i = connections.size() - 1; i >= 0; i--) {
            if (connections.get(i).get("to").stringValue().equals("rpc-reply")) {
                connections.remove(i);
            }
        }
        assertThat(api.put("/api/rule-chains/" + rootId, withoutReply.toString()).status()).isEqualTo(200);
        long timeoutsBefore = stats.getClientRpcOutcomes("TIMEOUT");
        try {
            ApiClient.Device device = newDevice();
            ApiClient.Response response = api.postAsDevice(device.token(), "rpc",
                    "{\"method\": \"getCurrentTime\", \"params\": {}}");

            assertThat(response.status()).isEqualTo(408);
            assertThat(response.json().get("detail").stringValue()).contains("rpc-call-reply",
                    "sample.rpc.client-side-timeout");
            assertThat(stats.getClientRpcOutcomes("TIMEOUT")).isGreaterThan(timeoutsBefore);
        } finally {
            assertThat(api.put("/api/rule-chains/" + rootId, original.toString()).status()).isEqualTo(200);
        }
    }
}
