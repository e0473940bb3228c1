package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.tbactors.kafka.EntityPartitioner;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Commands to devices across the nodes of the {@code cluster} profile (two nodes, one embedded Kafka broker, one
 * database): an RPC or a shared-attribute change posted to one node reaches the device's MQTT session on the other,
 * whichever node owns the device, and the device's answer comes back as the REST answer. When a node goes away, a
 * waiting call still ends (by its timeout at the latest) and a persistent request is delivered later.
 */
class ClusterRpcEndToEndTest extends KafkaClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration MESSAGE_WAIT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void commandsPostedToOneNodeReachTheDevicesSessionOnTheOtherWhicheverNodeOwnsTheDevice() throws Exception {
        try (ClusterEndToEndTest.TwoNodes cluster = ClusterEndToEndTest.TwoNodes.start("rpc")) {
            ConfigurableApplicationContext a = cluster.a();
            ConfigurableApplicationContext b = cluster.b();
            ApiClient viaA = ClusterEndToEndTest.api(a);
            ApiClient.Device ownedByA = deviceOwnedBy(viaA, a, "rpc-owned-by-a");
            ApiClient.Device ownedByB = deviceOwnedBy(viaA, b, "rpc-owned-by-b");

            for (ApiClient.Device device : List.of(ownedByA, ownedByB)) {
                try (MqttDevice onB = MqttDevice.connect(mqttPort(b), device.token(), 10)) {
                    onB.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS, MqttDevice.ATTRIBUTES);

                    // two-way: the device's answer is the REST answer
                    CompletableFuture<ApiClient.Response> call = CompletableFuture.supplyAsync(() -> viaA.post(
                            "/api/rpc/twoway/" + device.id(), "{\"method\": \"getMode\", \"params\": {\"zone\": 2}, \"timeout\": 15000}"));
                    MqttDevice.Received request = onB.next(MESSAGE_WAIT);
                    assertThat(request).as("the two-way request on B for %s", device.id()).isNotNull();
                    assertThat(JSON.readTree(request.payload()).get("method").stringValue()).isEqualTo("getMode");
                    onB.publishAndWait(request.topic().replace("/request/", "/response/"), "{\"mode\": \"eco\"}");
                    ApiClient.Response answered = call.get(MESSAGE_WAIT.toSeconds(), TimeUnit.SECONDS);
                    assertThat(answered.status()).as(answered.body()).isEqualTo(200);
                    assertThat(answered.json().get("mode").stringValue()).isEqualTo("eco");

                    // one-way: done once sent to the session
                    ApiClient.Response oneway = viaA.post("/api/rpc/oneway/" + device.id(), "{\"method\": \"setLed\", \"params\": true}");
                    assertThat(oneway.status()).as(oneway.body()).isEqualTo(200);
                    assertThat(JSON.readTree(onB.next(MESSAGE_WAIT).payload()).get("method").stringValue()).isEqualTo("setLed");

                    // not answered: ThingsBoard's 504, as on one node
                    ApiClient.Response timedOut = viaA.post("/api/rpc/twoway/" + device.id(),
                            "{\"method\": \"reboot\", \"timeout\": 1000}");
                    assertThat(timedOut.status()).as(timedOut.body()).isEqualTo(504);
                    assertThat(timedOut.json().get("detail").stringValue()).contains("did not answer within 1000 ms");
                    assertThat(JSON.readTree(onB.next(MESSAGE_WAIT).payload()).get("method").stringValue()).isEqualTo("reboot");

                    // shared attributes set on A are pushed to the session on B
                    assertThat(viaA.post("/api/plugins/telemetry/DEVICE/" + device.id() + "/attributes/SHARED_SCOPE",
                            "{\"targetTemperature\": 22.5}").status()).isEqualTo(200);
                    MqttDevice.Received pushed = onB.next(MESSAGE_WAIT);
                    assertThat(pushed).isNotNull();
                    assertThat(pushed.topic()).isEqualTo(MqttDevice.ATTRIBUTES);
                    assertThat(JSON.readTree(pushed.payload()).get("targetTemperature").doubleValue()).isEqualTo(22.5);

                    // persistent: stored on A, delivered to the session on B, its answer stored
                    String rpcId = viaA.post("/api/rpc/twoway/" + device.id(), "{\"method\": \"getFirmware\", \"persistent\": true, "
                            + "\"timeout\": 15000}").json().get("rpcId").stringValue();
                    MqttDevice.Received persistent = onB.next(MESSAGE_WAIT);
                    assertThat(persistent).as("the persistent request on B").isNotNull();
                    onB.publishAndWait(persistent.topic().replace("/request/", "/response/"), "{\"fw\": \"1.2\"}");
                    await().atMost(WAIT).until(() -> status(viaA, rpcId), "SUCCESSFUL"::equals);

                    // client-side RPC from the device on B: the owner's chain answers it, on the request's id
                    onB.subscribe("v1/devices/me/rpc/response/+");
                    long before = System.currentTimeMillis();
                    onB.publishAndWait("v1/devices/me/rpc/request/42", "{\"method\": \"getCurrentTime\", \"params\": {}}");
                    MqttDevice.Received answer = onB.next(MESSAGE_WAIT);
                    assertThat(answer).as("the chain's answer to the device on B for %s", device.id()).isNotNull();
                    assertThat(answer.topic()).isEqualTo("v1/devices/me/rpc/response/42");
                    assertThat(JSON.readTree(answer.payload()).get("time").longValue()).isGreaterThanOrEqualTo(before);
                }
            }

            // a one-way request pushed from owner A to a session on B is DELIVERED only once the device acknowledged it
            // on B (QoS 1): B tells the owner, the owner stores it
            try (MqttDevice acking = MqttDevice.connect(mqttPort(b), ownedByA.token(), 10, true)) {
                acking.subscribeAt(1, MqttRpcEndToEndTest.RPC_REQUESTS);
                String rpcId = viaA.post("/api/rpc/oneway/" + ownedByA.id(), "{\"method\": \"blink\", \"persistent\": true, "
                        + "\"timeout\": 15000}").json().get("rpcId").stringValue();
                MqttDevice.Received request = acking.next(MESSAGE_WAIT);
                assertThat(request).as("the persistent one-way request on B").isNotNull();
                await().atMost(WAIT).until(() -> status(viaA, rpcId), "SENT"::equals);
                assertThat(acking.next(Duration.ofMillis(500))).isNull();
                assertThat(status(viaA, rpcId)).as("written on B, not yet acknowledged").isEqualTo("SENT");

                acking.acknowledge(request);
                await().atMost(WAIT).until(() -> status(viaA, rpcId), "DELIVERED"::equals);
            }
        }
    }

    @Test
    void whenTheNodeHoldingTheSessionOrTheOwnerStopsTheWaitingCallEndsAndPersistentRequestsAreDeliveredLater() throws Exception {
        try (ClusterEndToEndTest.TwoNodes cluster = ClusterEndToEndTest.TwoNodes.start("rpc-loss")) {
            ConfigurableApplicationContext a = cluster.a();
            ConfigurableApplicationContext b = cluster.b();
            ApiClient viaA = ClusterEndToEndTest.api(a);
            ApiClient.Device sessionOnB = deviceOwnedBy(viaA, a, "session-node-stops");
            ApiClient.Device ownerB = deviceOwnedBy(viaA, b, "owner-stops");

            try (MqttDevice onB = MqttDevice.connect(mqttPort(b), sessionOnB.token(), 10);
                 MqttDevice onA = MqttDevice.connect(mqttPort(a), ownerB.token(), 10)) {
                onB.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
                onA.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
                // a two-way request the device on B takes and does not answer, and a persistent one the device on A
                // (owned by B) takes and does not answer yet
                long started = System.nanoTime();
                CompletableFuture<ApiClient.Response> waiting = CompletableFuture.supplyAsync(() -> viaA.post(
                        "/api/rpc/twoway/" + sessionOnB.id(), "{\"method\": \"slow\", \"timeout\": 8000}"));
                assertThat(onB.next(MESSAGE_WAIT)).as("the request on B").isNotNull();
                String sentRpcId = viaA.post("/api/rpc/twoway/" + ownerB.id(), "{\"method\": \"calibrate\", \"persistent\": true, "
                        + "\"timeout\": 60000}").json().get("rpcId").stringValue();
                assertThat(onA.next(MESSAGE_WAIT)).as("the persistent request on A").isNotNull();
                // SENT, and DELIVERED once the device's PUBACK is in (it subscribed at QoS 1): not answered either way
                await().atMost(WAIT).until(() -> status(viaA, sentRpcId), state -> "SENT".equals(state) || "DELIVERED".equals(state));
                // and a two-way request held by owner B, which the device on A takes and does not answer
                CompletableFuture<ApiClient.Response> waitingOnOwner = CompletableFuture.supplyAsync(() -> viaA.post(
                        "/api/rpc/twoway/" + ownerB.id(), "{\"method\": \"slow\", \"timeout\": 8000}"));
                assertThat(onA.next(MESSAGE_WAIT)).as("the request held by B, on A").isNotNull();

                b.close();

                // the calls whose session or owner went away end by their own timeout at the latest (plus the reply
                // path's margin): 504, or 503 saying the owner stopped
                for (CompletableFuture<ApiClient.Response> call : List.of(waiting, waitingOnOwner)) {
                    ApiClient.Response ended = call.get(30, TimeUnit.SECONDS);
                    assertThat(ended.status()).as(ended.body()).isIn(503, 504);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8 + 5 + 10));

                // the persistent request stayed SENT (or DELIVERED) through the owner's stop; A owns the device now and sends it again
                await().atMost(WAIT).until(() -> owned(a).size() == PARTITIONS);
                MqttDevice.Received again = onA.next(WAIT);
                assertThat(again).as("the persistent request sent again by the new owner").isNotNull();
                assertThat(JSON.readTree(again.payload()).get("method").stringValue()).isEqualTo("calibrate");
                onA.publishAndWait(again.topic().replace("/request/", "/response/"), "{\"ok\": true}");
                await().atMost(WAIT).until(() -> status(viaA, sentRpcId), "SUCCESSFUL"::equals);
            }

            // a persistent request for the device whose session was on B waits, QUEUED, and is delivered when it reconnects
            String queuedRpcId = viaA.post("/api/rpc/oneway/" + sessionOnB.id(), "{\"method\": \"update\", \"persistent\": true, "
                    + "\"timeout\": 60000}").json().get("rpcId").stringValue();
            // not sent to the session that is gone: it stays QUEUED
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> status(viaA, queuedRpcId), "QUEUED"::equals);
            try (MqttDevice reconnected = MqttDevice.connect(mqttPort(a), sessionOnB.token(), 10)) {
                reconnected.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
                MqttDevice.Received delivered = reconnected.next(MESSAGE_WAIT);
                assertThat(delivered).as("the queued request after the reconnection").isNotNull();
                assertThat(JSON.readTree(delivered.payload()).get("method").stringValue()).isEqualTo("update");
                await().atMost(WAIT).until(() -> status(viaA, queuedRpcId), "DELIVERED"::equals);
            }
        }
    }

    private static String status(ApiClient api, String rpcId) {
        return api.get("/api/rpc/persistent/" + rpcId).json().get("status").stringValue();
    }

    private static int mqttPort(ConfigurableApplicationContext node) {
        return Integer.parseInt(node.getEnvironment().getProperty("local.mqtt.port"));
    }

    private static ApiClient.Device deviceOwnedBy(ApiClient api, ConfigurableApplicationContext owner, String name) {
        for (int i = 0; ; i++) {
            ApiClient.Device device = api.createDevice(name + "-" + i);
            if (owned(owner).contains(EntityPartitioner.partition(device.id(), PARTITIONS))) {
                return device;
            }
        }
    }
}
