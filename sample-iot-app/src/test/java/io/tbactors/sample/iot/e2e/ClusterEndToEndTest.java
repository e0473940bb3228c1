package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.tbactors.sample.iot.SampleIotApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Two nodes of the app in the cluster profile against one in-process Kafka broker, sharing one database: telemetry
 * posted to either node over HTTP is processed by the node that owns the device's partition, and every reading
 * answered 200 is stored once, in order.
 */
class ClusterEndToEndTest extends KafkaClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    static ConfigurableApplicationContext startNode(String database, String topic) {
        return new SpringApplicationBuilder(SampleIotApplication.class)
                .profiles("test", "cluster")
                .run("--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                        "--spring.datasource.url=" + database,
                        "--server.port=0",
                        "--tb.actors.cluster.topic=" + topic,
                        "--tb.actors.cluster.group-id=" + topic,
                        "--tb.actors.cluster.partitions=" + PARTITIONS);
    }

    static ApiClient api(ConfigurableApplicationContext node) {
        return new ApiClient(Integer.parseInt(node.getEnvironment().getProperty("local.server.port")));
    }

    /** Two nodes on one fresh database and topic, once they have split the partitions; closed in reverse order. */
    record TwoNodes(ConfigurableApplicationContext a, ConfigurableApplicationContext b) implements AutoCloseable {

        static TwoNodes start(String name) {
            String database = "jdbc:h2:mem:" + name + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
            String topic = "sample-" + name + "-" + UUID.randomUUID();
            ConfigurableApplicationContext a = startNode(database, topic);
            ConfigurableApplicationContext b;
            try {
                b = startNode(database, topic);
            } catch (RuntimeException e) {
                a.close();
                throw e;
            }
            await().atMost(WAIT).until(() -> !owned(a).isEmpty() && !owned(b).isEmpty()
                    && owned(a).size() + owned(b).size() == PARTITIONS);
            return new TwoNodes(a, b);
        }

        @Override
        public void close() {
            b.close();
            a.close();
        }
    }

    @Test
    void telemetryPostedToEitherNodeIsProcessedByTheDevicesOwnerAndStoredOnceInOrder() throws Exception {
        try (TwoNodes cluster = TwoNodes.start("cluster")) {
            ConfigurableApplicationContext a = cluster.a();
            ConfigurableApplicationContext b = cluster.b();
            List<ApiClient> nodes = List.of(api(a), api(b));
            List<ApiClient.Device> devices = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                devices.add(nodes.get(0).createDevice("cluster-device-" + i));
            }
            int readings = 15;
            ExecutorService posters = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> posted = new ArrayList<>();
                for (ApiClient.Device device : devices) {
                    posted.add(posters.submit(() -> {
                        for (int seq = 0; seq < readings; seq++) {
                            // alternate the node the device posts to, as a device reconnecting would
                            ApiClient node = nodes.get(seq % 2);
                            int status = node.postAsDevice(device.token(), "telemetry",
                                    "{\"ts\": " + (1000 + seq) + ", \"values\": {\"seq\": " + seq + "}}").status();
                            assertThat(status).as("reading %d of %s", seq, device.id()).isEqualTo(200);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : posted) {
                    f.get(2, TimeUnit.MINUTES);
                }
            } finally {
                posters.shutdownNow();
            }

            for (ApiClient.Device device : devices) {
                JsonNode history = await().atMost(WAIT).until(
                        () -> nodes.get(0).get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq").json(),
                        json -> json.has("seq") && json.get("seq").size() >= readings);
                List<Long> seqs = history.get("seq").valueStream().map(v -> v.get("value").longValue()).toList();
                assertThat(seqs).as("device %s", device.id()).hasSize(readings);
                assertThat(new HashSet<>(seqs)).hasSize(readings);
                // each device's actor lives on exactly one node: its partition's owner
                int hosts = 0;
                for (ApiClient node : nodes) {
                    if (node.get("/actuator/tbactors/DEVICE%7C" + device.id()).status() == 200) {
                        hosts++;
                    }
                }
                assertThat(hosts).as("nodes hosting the actor of %s", device.id()).isEqualTo(1);
            }
        }
    }

    @Test
    void whenANodeStopsWhileDevicesPostItsPartitionsMoveAndEveryReadingAnswered200IsStored() throws Exception {
        try (TwoNodes cluster = TwoNodes.start("failover")) {
            ConfigurableApplicationContext a = cluster.a();
            ConfigurableApplicationContext b = cluster.b();
            ApiClient survivor = api(a);
            List<ApiClient.Device> devices = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                devices.add(survivor.createDevice("failover-device-" + i));
            }
            java.util.Map<UUID, Set<Long>> answered200 = new java.util.concurrent.ConcurrentHashMap<>();
            java.util.concurrent.atomic.AtomicInteger total = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            ExecutorService posters = Executors.newFixedThreadPool(4);
            List<Future<?>> posting = new ArrayList<>();
            for (ApiClient.Device device : devices) {
                Set<Long> accepted = java.util.concurrent.ConcurrentHashMap.newKeySet();
                answered200.put(device.id(), accepted);
                posting.add(posters.submit(() -> {
                    for (long seq = 0; !stop.get() && seq < 10_000; seq++) {
                        if (survivor.postAsDevice(device.token(), "telemetry",
                                "{\"ts\": " + (1000 + seq) + ", \"values\": {\"seq\": " + seq + "}}").status() == 200) {
                            accepted.add(seq);
                            total.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            await().atMost(WAIT).until(() -> total.get() >= 100);
            b.close();
            await().atMost(WAIT).until(() -> owned(a).size() == PARTITIONS);
            int afterFailover = total.get();
            await().atMost(WAIT).until(() -> total.get() >= afterFailover + 100);
            stop.set(true);
            for (Future<?> f : posting) {
                f.get(1, TimeUnit.MINUTES);
            }
            posters.shutdown();

            for (ApiClient.Device device : devices) {
                Set<Long> expected = answered200.get(device.id());
                await().atMost(WAIT).untilAsserted(() -> {
                    JsonNode history = survivor.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq").json();
                    Set<Long> stored = new HashSet<>();
                    if (history.has("seq")) {
                        history.get("seq").valueStream().forEach(v -> stored.add(v.get("value").longValue()));
                    }
                    assertThat(stored).as("device %s", device.id()).containsAll(expected);
                });
            }
        }
    }

    private static java.util.List<Long> storedSeqs(ApiClient node, ApiClient.Device device) {
        JsonNode history = node.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq&limit=1000").json();
        if (!history.has("seq")) {
            return List.of();
        }
        return history.get("seq").valueStream().map(v -> v.get("value").longValue()).toList();
    }

    @Test
    void aReadingAnswered200ByANodeThatDoesNotOwnTheDeviceIsAlreadyStoredWhenTheAnswerComes() throws Exception {
        try (TwoNodes cluster = TwoNodes.start("stored")) {
            ConfigurableApplicationContext a = cluster.a();
            ConfigurableApplicationContext b = cluster.b();
            ApiClient viaA = api(a);
            List<ApiClient.Device> ownedByB = new ArrayList<>();
            for (int i = 0; ownedByB.size() < 4; i++) {
                ApiClient.Device device = viaA.createDevice("remote-device-" + i);
                if (owned(b).contains(io.tbactors.kafka.EntityPartitioner.partition(device.id(), PARTITIONS))) {
                    ownedByB.add(device);
                }
            }
            int readings = 20;
            for (int seq = 1; seq <= readings; seq++) {
                for (ApiClient.Device device : ownedByB) {
                    assertThat(viaA.postAsDevice(device.token(), "telemetry",
                            "{\"ts\": " + (1000 + seq) + ", \"values\": {\"seq\": " + seq + "}}").status())
                            .as("reading %d of %s", seq, device.id()).isEqualTo(200);
                    // no wait: a 200 from any node means stored
                    assertThat(storedSeqs(viaA, device)).as("stored readings of %s right after the 200 of %d", device.id(), seq)
                            .contains((long) seq);
                }
            }
            for (ApiClient.Device device : ownedByB) {
                assertThat(storedSeqs(viaA, device)).as("device %s", device.id()).containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.rangeClosed(1, readings).boxed().toList());
            }
            assertThat(a.getBean(io.tbactors.kafka.KafkaTbNodeChannel.class).getRequestsSentCount())
                    .as("readings sent to B as requests").isGreaterThanOrEqualTo((long) readings * ownedByB.size());
        }
    }

    @Test
    void aDeviceDeletedOnOneNodeIsForgottenByEveryNodeAndARuleChainUpdateIsEvictedEverywhere() throws Exception {
        try (TwoNodes cluster = TwoNodes.start("admin")) {
            ConfigurableApplicationContext a = cluster.a();
            ConfigurableApplicationContext b = cluster.b();
            ApiClient viaA = api(a);
            ApiClient viaB = api(b);
            ApiClient.Device device = viaA.createDevice("deleted-elsewhere");
            String reading = "{\"temperature\": 21}";
            assertThat(viaB.postAsDevice(device.token(), "telemetry", reading).status()).as("B knows the device").isEqualTo(200);
            org.springframework.cache.Cache tokensOnB = b.getBean(org.springframework.cache.CacheManager.class)
                    .getCache(io.tbactors.sample.iot.device.DeviceService.DEVICES_BY_TOKEN);
            assertThat(tokensOnB.get(device.token())).as("B cached the token").isNotNull();

            assertThat(viaA.delete("/api/devices/" + device.id()).status()).isIn(200, 204);

            await().atMost(WAIT).until(() -> tokensOnB.get(device.token()) == null);
            assertThat(viaB.postAsDevice(device.token(), "telemetry", reading).status()).as("B after the deletion on A").isEqualTo(401);

            JsonNode chains = viaA.get("/api/rule-chains").json();
            JsonNode root = chains.valueStream().filter(chain -> chain.get("root").booleanValue()).findFirst().orElseThrow();
            UUID chainId = UUID.fromString(root.get("id").stringValue());
            org.springframework.cache.Cache chainsOnB = b.getBean(org.springframework.cache.CacheManager.class)
                    .getCache(io.tbactors.sample.iot.rule.RuleChainService.RULE_CHAINS);
            b.getBean(io.tbactors.sample.iot.rule.RuleChainService.class).findById(chainId);
            assertThat(chainsOnB.get(chainId)).as("B cached the root chain").isNotNull();
            JsonNode definition = viaA.get("/api/rule-chains/" + chainId).json();

            ApiClient.Response updated = viaA.put("/api/rule-chains/" + chainId, definition.toString());
            assertThat(updated.status()).isEqualTo(200);
            long version = updated.json().get("version").longValue();
            assertThat(version).isGreaterThan(definition.get("version").longValue());

            // B evicted its copy, and its chain actor reloaded the new version (which B caches again)
            await().atMost(WAIT).until(() -> {
                org.springframework.cache.Cache.ValueWrapper cached = chainsOnB.get(chainId);
                // Spring caches what an Optional holds
                return cached == null || cached.get() instanceof io.tbactors.sample.iot.rule.RuleChain chain
                        && chain.version() == version;
            });
        }
    }
}
