package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A persistent RPC survives a stop, tested through a real one: the application runs in its own JVM on an H2 file,
 * takes a persistent two-way request for a device that is not connected, gets SIGTERM, starts again on the same file;
 * the device connects over MQTT and subscribes, gets the request, answers, and the stored state becomes SUCCESSFUL
 * with the answer.
 */
class SigtermPersistentRpcEndToEndTest extends AppProcessTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aPersistentRpcTakenBeforeASigtermIsDeliveredWhenTheDeviceSubscribesAfterTheRestart() throws Exception {
        String url = databaseUrl("h2");
        app = AppProcess.start(url, "384m");
        ApiClient api = app.api();
        ApiClient.Device device = api.createDevice("persistent-rpc-device");
        long expiration = System.currentTimeMillis() + Duration.ofMinutes(10).toMillis();
        ApiClient.Response taken = api.post("/api/rpc/twoway/" + device.id(), "{\"method\": \"setMode\", \"params\": "
                + "{\"mode\": \"eco\"}, \"persistent\": true, \"timeout\": 30000, \"expirationTime\": " + expiration + "}");
        assertThat(taken.status()).isEqualTo(200);
        String rpcId = taken.json().get("rpcId").stringValue();
        assertThat(status(api, rpcId)).isEqualTo("QUEUED");

        assertThat(app.terminate(Duration.ofSeconds(90))).as("the application ends after SIGTERM; its log: %s", app.log())
                .isTrue();
        app = AppProcess.start(url, "384m");
        ApiClient restarted = app.api();
        assertThat(status(restarted, rpcId)).isEqualTo("QUEUED");

        try (MqttDevice mqtt = MqttDevice.connect(app.mqttPort(), device.token(), 10)) {
            mqtt.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
            MqttDevice.Received request = mqtt.next(WAIT);
            assertThat(request).as("the request, after the restart").isNotNull();
            assertThat(request.payload()).contains("\"method\":\"setMode\"");
            mqtt.publishAndWait(request.topic().replace("/request/", "/response/"), "{\"mode\": \"eco\"}");
        }

        await().atMost(WAIT).until(() -> "SUCCESSFUL".equals(status(restarted, rpcId)));
        JsonNode listed = restarted.get("/api/rpc/persistent/device/" + device.id()).json().get("data").get(0);
        assertThat(listed.get("id").stringValue()).isEqualTo(rpcId);
        assertThat(listed.get("response").get("mode").stringValue()).isEqualTo("eco");
    }

    private static String status(ApiClient api, String rpcId) {
        return api.get("/api/rpc/persistent/" + rpcId).json().get("status").stringValue();
    }
}
