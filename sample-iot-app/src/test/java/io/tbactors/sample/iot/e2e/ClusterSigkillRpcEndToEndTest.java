package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.tbactors.kafka.EntityPartitioner;
import io.tbactors.sample.iot.SampleIotApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Commands to devices through a real crash of a node (the {@code cluster} profile): the survivor runs in-process and
 * serves the database, the other node runs in a JVM of its own and is killed with SIGKILL (nothing drained, no
 * session unsubscribed, nothing committed) while it owns a device whose session is on the survivor, and holds the
 * session of a device the survivor owns. Every call waiting on it ends by its own timeout at the latest, the
 * persistent request it had sent stays SENT and the survivor sends it again once it owns the device, and a persistent
 * request for the device whose connection died waits QUEUED until the device reconnects.
 */
class ClusterSigkillRpcEndToEndTest extends KafkaClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration MESSAGE_WAIT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration SESSION_REFRESH = Duration.ofSeconds(1);

    @Test
    void aNodeKilledWithSigkillLeavesNoCallWaitingAndItsPersistentRequestsAreDeliveredLater() throws Exception {
        Path directory = Files.createTempDirectory("cluster-sigkill-rpc");
        String file = directory.resolve("db").toAbsolutePath().toString();
        int h2Port = AppProcess.freePort();
        String topic = "sample-sigkill-rpc-" + UUID.randomUUID();
        String[] cluster = {"--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                "--tb.actors.cluster.topic=" + topic, "--tb.actors.cluster.group-id=" + topic,
                "--tb.actors.cluster.partitions=" + PARTITIONS, "--tb.actors.cluster.consumer[session.timeout.ms]=6000",
                "--tb.actors.cluster.consumer[heartbeat.interval.ms]=500", "--sample.rpc.session-refresh=" + SESSION_REFRESH};
        List<String> survivorArgs = new ArrayList<>(List.of("--spring.datasource.url=jdbc:h2:file:" + file + ";DB_CLOSE_ON_EXIT=FALSE",
                "--sample.h2-server.port=" + h2Port, "--server.port=0"));
        survivorArgs.addAll(List.of(cluster));
        List<String> killedArgs = new ArrayList<>(List.of("--spring.profiles.active=cluster"));
        killedArgs.addAll(List.of(cluster));
        try (ConfigurableApplicationContext survivor = new SpringApplicationBuilder(SampleIotApplication.class)
                .profiles("test", "cluster").run(survivorArgs.toArray(String[]::new));
             AppProcess killed = AppProcess.start("jdbc:h2:tcp://localhost:" + h2Port + "/" + file, "384m",
                     killedArgs.toArray(String[]::new))) {
            await().atMost(WAIT).until(() -> !owned(survivor).isEmpty() && owned(survivor).size() < PARTITIONS);
            ApiClient viaSurvivor = ClusterEndToEndTest.api(survivor);
            ApiClient.Device ownedByKilled = device(viaSurvivor, survivor, false, "owned-by-killed");
            ApiClient.Device connectedToKilled = device(viaSurvivor, survivor, true, "connected-to-killed");
            int survivorMqtt = Integer.parseInt(survivor.getEnvironment().getProperty("local.mqtt.port"));

            long killedAt;
            String sentRpcId;
            try (MqttDevice onSurvivor = MqttDevice.connect(survivorMqtt, ownedByKilled.token(), 10);
                 MqttDevice onKilled = MqttDevice.connect(killed.mqttPort(), connectedToKilled.token(), 10)) {
                onSurvivor.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
                onKilled.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
                // the killed node owns the first device: a persistent request it sent, not answered yet, and a call
                // waiting on it; it holds the second device's connection: a call waiting for that device
                sentRpcId = viaSurvivor.post("/api/rpc/twoway/" + ownedByKilled.id(), "{\"method\": \"calibrate\", "
                        + "\"persistent\": true, \"timeout\": 60000}").json().get("rpcId").stringValue();
                assertThat(onSurvivor.next(MESSAGE_WAIT)).as("the persistent request, sent by the killed owner").isNotNull();
                // SENT, and DELIVERED once the device's PUBACK is in (it subscribed at QoS 1): not answered either way
                await().atMost(WAIT).until(() -> status(viaSurvivor, sentRpcId), state -> "SENT".equals(state)
                        || "DELIVERED".equals(state));
                CompletableFuture<ApiClient.Response> waitingOnOwner = CompletableFuture.supplyAsync(() -> viaSurvivor.post(
                        "/api/rpc/twoway/" + ownedByKilled.id(), "{\"method\": \"slow\", \"timeout\": 5000}"));
                assertThat(onSurvivor.next(MESSAGE_WAIT)).as("the request held by the killed owner").isNotNull();
                CompletableFuture<ApiClient.Response> waitingOnSession = CompletableFuture.supplyAsync(() -> viaSurvivor.post(
                        "/api/rpc/twoway/" + connectedToKilled.id(), "{\"method\": \"slow\", \"timeout\": 5000}"));
                assertThat(onKilled.next(MESSAGE_WAIT)).as("the request on the killed node's session").isNotNull();

                killedAt = System.nanoTime();
                assertThat(killed.kill(Duration.ofSeconds(30))).as("the node ended on SIGKILL").isTrue();

                // each call ends by its timeout (5 s) and the caller's margin (5 s) at the latest
                for (CompletableFuture<ApiClient.Response> call : List.of(waitingOnOwner, waitingOnSession)) {
                    ApiClient.Response ended = call.get(30, TimeUnit.SECONDS);
                    assertThat(ended.status()).as(ended.body()).isIn(503, 504);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(5 + 5 + 5));

                // the survivor owns the first device now; it restores the request the killed node had sent and sends it
                // again (records the killed node had not committed come again too: at least once)
                await().atMost(WAIT).until(() -> owned(survivor).size() == PARTITIONS);
                MqttDevice.Received again;
                do {
                    again = onSurvivor.next(WAIT);
                    assertThat(again).as("the persistent request, sent again by the new owner").isNotNull();
                } while (!"calibrate".equals(JSON.readTree(again.payload()).get("method").stringValue()));
                onSurvivor.publishAndWait(again.topic().replace("/request/", "/response/"), "{\"ok\": true}");
                await().atMost(WAIT).until(() -> status(viaSurvivor, sentRpcId), "SUCCESSFUL"::equals);
            }

            // the second device's session died with its node, unsubscribed by no one: the owner forgot it once three
            // refreshes passed without it, so a persistent request waits QUEUED for the device to reconnect
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isGreaterThan(SESSION_REFRESH.multipliedBy(3));
            String queuedRpcId = viaSurvivor.post("/api/rpc/oneway/" + connectedToKilled.id(), "{\"method\": \"update\", "
                    + "\"persistent\": true, \"timeout\": 60000}").json().get("rpcId").stringValue();
            // not sent to the session that is gone: it stays QUEUED
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                    .until(() -> status(viaSurvivor, queuedRpcId), "QUEUED"::equals);
            try (MqttDevice reconnected = MqttDevice.connect(survivorMqtt, connectedToKilled.token(), 10)) {
                reconnected.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS);
                MqttDevice.Received delivered = reconnected.next(MESSAGE_WAIT);
                assertThat(delivered).as("the queued request after the reconnection").isNotNull();
                assertThat(JSON.readTree(delivered.payload()).get("method").stringValue()).isEqualTo("update");
                await().atMost(WAIT).until(() -> status(viaSurvivor, queuedRpcId), "DELIVERED"::equals);
            }
        }
    }

    private static String status(ApiClient api, String rpcId) {
        return api.get("/api/rpc/persistent/" + rpcId).json().get("status").stringValue();
    }

    private static ApiClient.Device device(ApiClient api, ConfigurableApplicationContext survivor, boolean ownedBySurvivor,
                                           String name) {
        for (int i = 0; ; i++) {
            ApiClient.Device device = api.createDevice(name + "-" + i);
            if (owned(survivor).contains(EntityPartitioner.partition(device.id(), PARTITIONS)) == ownedBySurvivor) {
                return device;
            }
        }
    }
}
