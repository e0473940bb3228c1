package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ThingsBoard's two-way MQTT device API through a real MQTT client (Eclipse Paho, MQTT 3.1.1): server-side RPC from
 * the management API ({@code /api/rpc/oneway|twoway/{deviceId}}), attribute requests, shared-attribute updates and
 * client-side RPC, with ThingsBoard's topics and JSON.
 */
class MqttRpcEndToEndTest extends EndToEndTest {

    static final String RPC_REQUESTS = "v1/devices/me/rpc/request/+";
    static final String ATTRIBUTE_RESPONSES = "v1/devices/me/attributes/response/+";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.mqtt.port}")
    int mqttPort;

    @Test
    void theDeviceApiTopicsAreGrantedAndAnyOtherIsRefused() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            assertThat(mqtt.subscribe(RPC_REQUESTS, MqttDevice.ATTRIBUTES, ATTRIBUTE_RESPONSES, "v1/devices/me/rpc/response/+",
                    "v1/devices/me/attributes/response/7", "v1/devices/other/#", "v1/devices/me/rpc/response/x"))
                    .containsExactly(1, 1, 1, 1, 1, 128, 128);
            assertThat(mqtt.subscribeAt(0, RPC_REQUESTS)).containsExactly(0);
            assertThat(mqtt.isConnected()).isTrue();
        }
    }

    @Test
    void aTwoWayRpcReachesTheDeviceAndTheCallerGetsItsAnswer() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe(RPC_REQUESTS);
            CompletableFuture<ApiClient.Response> call = CompletableFuture.supplyAsync(() -> api.post(
                    "/api/rpc/twoway/" + device.id(), "{\"method\": \"getMode\", \"params\": {\"zone\": 2}, \"timeout\": 10000}"));

            MqttDevice.Received request = mqtt.next(WAIT);
            assertThat(request).isNotNull();
            assertThat(request.topic()).matches("v1/devices/me/rpc/request/\\d+");
            JsonNode body = JSON.readTree(request.payload());
            assertThat(body.get("method").stringValue()).isEqualTo("getMode");
            assertThat(body.get("params").get("zone").intValue()).isEqualTo(2);

            String id = request.topic().substring(request.topic().lastIndexOf('/') + 1);
            mqtt.publishAndWait("v1/devices/me/rpc/response/" + id, "{\"mode\": \"eco\"}");

            ApiClient.Response response = call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.json().get("mode").stringValue()).isEqualTo("eco");
        }
    }

    @Test
    void aTwoWayRpcTheDeviceDoesNotAnswerGetsThingsBoardsGatewayTimeout() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe(RPC_REQUESTS);
            ApiClient.Response response = api.post("/api/rpc/twoway/" + device.id(),
                    "{\"method\": \"reboot\", \"timeout\": 300}");

            assertThat(response.status()).isEqualTo(504);
            assertThat(response.json().get("detail").stringValue()).contains("did not answer within 300 ms");
            assertThat(mqtt.next(WAIT).topic()).startsWith("v1/devices/me/rpc/request/");
        }
    }

    @Test
    void aOneWayRpcIsDoneOnceSentToTheDevice() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe(RPC_REQUESTS);
            ApiClient.Response response = api.post("/api/rpc/oneway/" + device.id(),
                    "{\"method\": \"setLed\", \"params\": true}");

            assertThat(response.status()).isEqualTo(200);
            MqttDevice.Received request = mqtt.next(WAIT);
            assertThat(JSON.readTree(request.payload()).get("params").booleanValue()).isTrue();
        }
    }

    @Test
    void aRequestSentBeforeTheDeviceSubscribesIsDeliveredWhenItDoes() throws Exception {
        ApiClient.Device device = newDevice();
        CompletableFuture<ApiClient.Response> call = CompletableFuture.supplyAsync(() -> api.post(
                "/api/rpc/twoway/" + device.id(), "{\"method\": \"getFirmware\", \"timeout\": 20000}"));
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe(RPC_REQUESTS);
            MqttDevice.Received request = mqtt.next(WAIT);
            assertThat(request).isNotNull();
            mqtt.publishAndWait(request.topic().replace("/request/", "/response/"), "{\"fw\": \"1.2\"}");

            assertThat(call.get(WAIT.toSeconds(), TimeUnit.SECONDS).json().get("fw").stringValue())
                    .isEqualTo("1.2");
        }
    }

    @Test
    void aPersistentOneWayRpcAtQos1IsDeliveredWhenTheDeviceAcknowledgesItNotBefore() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10, true)) {
            mqtt.subscribe(RPC_REQUESTS);
            String rpcId = api.post("/api/rpc/oneway/" + device.id(), "{\"method\": \"setLed\", \"params\": 1, "
                    + "\"persistent\": true, \"timeout\": 20000}").json().get("rpcId").stringValue();

            MqttDevice.Received request = mqtt.next(WAIT);
            assertThat(request.qos()).isEqualTo(1);
            await().atMost(WAIT).until(() -> "SENT".equals(status(rpcId)));
            // not acknowledged yet: it stays SENT (ThingsBoard's state of a request the device has not confirmed)
            assertThat(mqtt.next(Duration.ofMillis(500))).isNull();
            assertThat(status(rpcId)).isEqualTo("SENT");

            mqtt.acknowledge(request);
            await().atMost(WAIT).until(() -> "DELIVERED".equals(status(rpcId)));
        }
    }

    @Test
    void aPersistentTwoWayRpcAtQos1IsDeliveredThenSuccessful() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10, true)) {
            mqtt.subscribe(RPC_REQUESTS);
            String rpcId = api.post("/api/rpc/twoway/" + device.id(), "{\"method\": \"getMode\", "
                    + "\"persistent\": true, \"timeout\": 20000}").json().get("rpcId").stringValue();
            MqttDevice.Received request = mqtt.next(WAIT);
            await().atMost(WAIT).until(() -> "SENT".equals(status(rpcId)));

            mqtt.acknowledge(request);
            await().atMost(WAIT).until(() -> "DELIVERED".equals(status(rpcId)));
            mqtt.publishAndWait(request.topic().replace("/request/", "/response/"), "{\"mode\": \"eco\"}");
            await().atMost(WAIT).until(() -> "SUCCESSFUL".equals(status(rpcId)));
        }
    }

    @Test
    void aRequestToADeviceSubscribedAtQos0IsDeliveredWhenWritten() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10, true)) {
            assertThat(mqtt.subscribeAt(0, RPC_REQUESTS)).containsExactly(0);
            String rpcId = api.post("/api/rpc/oneway/" + device.id(), "{\"method\": \"setLed\", \"params\": 1, "
                    + "\"persistent\": true, \"timeout\": 20000}").json().get("rpcId").stringValue();

            assertThat(mqtt.next(WAIT).qos()).isZero();
            await().atMost(WAIT).until(() -> "DELIVERED".equals(status(rpcId)));
        }
    }

    private String status(String rpcId) {
        return api.get("/api/rpc/persistent/" + rpcId).json().get("status").stringValue();
    }

    @Test
    void badRpcRequestsAreRefusedSayingWhatIsAllowed() {
        ApiClient.Device device = newDevice();
        ApiClient.Response noMethod = api.post("/api/rpc/twoway/" + device.id(), "{\"params\": {}}");
        assertThat(noMethod.status()).isEqualTo(400);
        assertThat(noMethod.json().get("detail").stringValue()).contains("has no \"method\"");

        ApiClient.Response tooLong = api.post("/api/rpc/twoway/" + device.id(), "{\"method\": \"m\", \"timeout\": 86400000}");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().get("detail").stringValue()).contains("sample.rpc.max-timeout");

        assertThat(api.post("/api/rpc/twoway/" + UUID.randomUUID(), "{\"method\": \"m\"}").status()).isEqualTo(404);
    }

    @Test
    void anAttributeRequestIsAnsweredWithTheClientAndSharedAttributesAskedFor() throws Exception {
        ApiClient.Device device = newDevice();
        assertThat(api.post("/api/plugins/telemetry/DEVICE/" + device.id() + "/attributes/SHARED_SCOPE",
                "{\"targetTemperature\": 22.5, \"mode\": \"eco\"}").status()).isEqualTo(200);
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.publishAndWait(MqttDevice.ATTRIBUTES, "{\"firmware\": \"1.4.2\", \"slots\": 4}");
            mqtt.subscribe(ATTRIBUTE_RESPONSES);
            mqtt.publishAndWait("v1/devices/me/attributes/request/7", "{\"clientKeys\": \"firmware\", "
                    + "\"sharedKeys\": \"targetTemperature,unknown\"}");

            MqttDevice.Received response = mqtt.next(WAIT);
            assertThat(response.topic()).isEqualTo("v1/devices/me/attributes/response/7");
            assertThat(JSON.readTree(response.payload())).isEqualTo(JSON.readTree(
                    "{\"client\": {\"firmware\": \"1.4.2\"}, \"shared\": {\"targetTemperature\": 22.5}}"));
        }
    }

    @Test
    void sharedAttributesSetOnTheServerArePushedToTheSubscribedDevice() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe(MqttDevice.ATTRIBUTES);
            assertThat(api.post("/api/plugins/telemetry/DEVICE/" + device.id() + "/attributes/SHARED_SCOPE",
                    "{\"targetTemperature\": 19}").status()).isEqualTo(200);

            MqttDevice.Received update = mqtt.next(WAIT);
            assertThat(update.topic()).isEqualTo(MqttDevice.ATTRIBUTES);
            assertThat(JSON.readTree(update.payload()).get("targetTemperature").intValue()).isEqualTo(19);
            JsonNode listed = api.get("/api/plugins/telemetry/DEVICE/" + device.id() + "/values/attributes/SHARED_SCOPE")
                    .json();
            assertThat(listed.get(0).get("key").stringValue()).isEqualTo("targetTemperature");
            assertThat(listed.get(0).get("value").intValue()).isEqualTo(19);
        }
    }

    @Test
    void aClientSideRpcIsAnsweredOnTheResponseTopicWithTheSameId() throws Exception {
        ApiClient.Device device = newDevice();
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe("v1/devices/me/rpc/response/+");
            long before = System.currentTimeMillis();
            mqtt.publishAndWait("v1/devices/me/rpc/request/42", "{\"method\": \"getCurrentTime\", \"params\": {}}");

            MqttDevice.Received answer = mqtt.next(WAIT);
            assertThat(answer.topic()).isEqualTo("v1/devices/me/rpc/response/42");
            assertThat(JSON.readTree(answer.payload()).get("time").longValue()).isGreaterThanOrEqualTo(before);

            // answered by the root chain's other branch, with the same request id
            mqtt.publishAndWait("v1/devices/me/rpc/request/43", "{\"method\": \"launch\"}");
            MqttDevice.Received error = mqtt.next(WAIT);
            assertThat(error.topic()).isEqualTo("v1/devices/me/rpc/response/43");
            assertThat(JSON.readTree(error.payload()).get("error").stringValue()).contains("'launch'");
        }
    }
}
