package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.sample.iot.SampleIotApplication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import lombok.extern.slf4j.Slf4j;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The cluster's delivery contract through a real crash: two nodes of the app share one database and one topic, one
 * of them in a JVM of its own; devices post numbered readings through both, and the separate node is killed with
 * SIGKILL mid-load (no shutdown hook, nothing drained, nothing committed). Its devices reconnect to the survivor and
 * resend what was not answered. Every reading answered 200, by either node, must be in the database.
 */
@Slf4j
class ClusterSigkillEndToEndTest extends KafkaClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void aNodeKilledWithSigkillWhileDevicesPostThroughBothNodesLosesNoReadingAnswered200() throws Exception {
        Path directory = Files.createTempDirectory("cluster-sigkill");
        // the survivor opens the file and serves it to the other node over TCP, as the cluster profile's README says
        String file = directory.resolve("db").toAbsolutePath().toString();
        int h2Port = AppProcess.freePort();
        String topic = "sample-sigkill-" + UUID.randomUUID();
        String[] cluster = {"--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                "--tb.actors.cluster.topic=" + topic, "--tb.actors.cluster.group-id=" + topic,
                "--tb.actors.cluster.partitions=" + PARTITIONS, "--tb.actors.cluster.consumer[session.timeout.ms]=6000",
                "--tb.actors.cluster.consumer[heartbeat.interval.ms]=500"};
        List<String> survivorArgs = new ArrayList<>(List.of("--spring.datasource.url=jdbc:h2:file:" + file + ";DB_CLOSE_ON_EXIT=FALSE",
                "--sample.h2-server.port=" + h2Port, "--server.port=0"));
        survivorArgs.addAll(List.of(cluster));
        List<String> killedArgs = new ArrayList<>(List.of("--spring.profiles.active=cluster"));
        killedArgs.addAll(List.of(cluster));
        String served = "jdbc:h2:tcp://localhost:" + h2Port + "/" + file;
        try (ConfigurableApplicationContext survivor = new SpringApplicationBuilder(SampleIotApplication.class)
                .profiles("test", "cluster").run(survivorArgs.toArray(String[]::new));
             AppProcess killed = AppProcess.start(served, "384m", killedArgs.toArray(String[]::new))) {
            await().atMost(WAIT).until(() -> !owned(survivor).isEmpty() && owned(survivor).size() < PARTITIONS);
            ApiClient survivorApi = new ApiClient(Integer.parseInt(survivor.getEnvironment().getProperty("local.server.port")));
            List<ApiClient.Device> devices = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                devices.add(survivorApi.createDevice("sigkill-device-" + i));
            }
            Map<UUID, Set<Long>> answered200 = new ConcurrentHashMap<>();
            AtomicInteger throughKilled = new AtomicInteger();
            AtomicInteger total = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService posters = Executors.newFixedThreadPool(devices.size());
            List<Future<?>> posting = new ArrayList<>();
            for (int i = 0; i < devices.size(); i++) {
                ApiClient.Device device = devices.get(i);
                boolean startOnKilled = i % 2 == 0;
                Set<Long> accepted = ConcurrentHashMap.newKeySet();
                answered200.put(device.id(), accepted);
                posting.add(posters.submit(() -> {
                    ApiClient through = startOnKilled ? killed.api() : survivorApi;
                    for (long seq = 0; !stop.get() && seq < 5_000; seq++) {
                        int status;
                        try {
                            status = through.postAsDevice(device.token(), "telemetry",
                                    "{\"ts\": " + (1000 + seq) + ", \"values\": {\"seq\": " + seq + "}}").status();
                        } catch (RuntimeException connectionLost) {
                            status = -1;
                        }
                        if (status == 200) {
                            accepted.add(seq);
                            total.incrementAndGet();
                            if (through != survivorApi) {
                                throughKilled.incrementAndGet();
                            }
                        } else {
                            // like a device whose node went away or pushed back: it resends the reading, to the survivor
                            refused.incrementAndGet();
                            through = survivorApi;
                            seq--;
                            TimeUnit.MILLISECONDS.sleep(50);
                        }
                    }
                    return null;
                }));
            }
            await().atMost(WAIT).until(() -> throughKilled.get() >= 150);
            assertThat(killed.kill(Duration.ofSeconds(30))).as("the node ended on SIGKILL").isTrue();
            int answeredByKilled = throughKilled.get();
            await().atMost(WAIT).until(() -> owned(survivor).size() == PARTITIONS);
            int afterFailover = total.get();
            await().atMost(WAIT).until(() -> total.get() >= afterFailover + 200);
            stop.set(true);
            for (Future<?> future : posting) {
                future.get(2, TimeUnit.MINUTES);
            }
            posters.shutdown();

            for (ApiClient.Device device : devices) {
                Set<Long> expected = answered200.get(device.id());
                assertThat(expected).as("readings of %s answered 200", device.id()).isNotEmpty();
                await().atMost(WAIT).untilAsserted(() -> {
                    JsonNode history = survivorApi.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq&limit=10000").json();
                    Set<Long> stored = new java.util.HashSet<>();
                    if (history.has("seq")) {
                        history.get("seq").valueStream().forEach(v -> stored.add(v.get("value").longValue()));
                    }
                    assertThat(stored).as("stored readings of %s", device.id()).containsAll(expected);
                });
            }
            log.info("SIGKILL of a sample-app node: {} readings answered 200 ({} by the killed node), {} refused or lost "
                    + "connections resent to the survivor; all stored", total.get(), answeredByKilled, refused.get());
        }
    }
}
