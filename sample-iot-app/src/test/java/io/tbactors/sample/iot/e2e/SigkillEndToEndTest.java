package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import lombok.extern.slf4j.Slf4j;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promise about a crash, tested through a real one: a crash loses at most what was never acknowledged. The
 * application runs in its own JVM on a file database given as the README gives it (a plain {@code jdbc:h2:file:} URL),
 * devices post numbered readings over HTTP and publish them as MQTT QoS 1 at once, and mid-load the JVM gets SIGKILL
 * ({@link Process#destroyForcibly()}: no shutdown hook, nothing drained or closed). The app then starts again on the
 * same database, and every reading that was answered 200 or acknowledged with a PUBACK before the kill must be in it.
 * The same on the postgres profile, against the test run's PostgreSQL server (see {@link TestPostgres}).
 */
@Slf4j
class SigkillEndToEndTest extends AppProcessTest {

    private static final int HTTP_DEVICES = 6;
    private static final int HTTP_POSTERS = 24;
    private static final int MQTT_DEVICES = 6;
    private static final int MQTT_WINDOW = 100;
    private static final int ANSWERED_BEFORE_KILL = 4000;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void aSigkillWhileDevicesPostAndPublishLosesNoReadingThatWasAnsweredOrAcknowledged(String database) throws Exception {
        boolean postgres = database.equals("postgres");
        String url = databaseUrl(database);
        String[] profile = postgres ? new String[] {"--spring.profiles.active=postgres"} : new String[0];
        app = AppProcess.start(url, "384m", profile);
        Path appLog = app.log();
        ApiClient api = app.api();
        Map<UUID, Set<Long>> answered = new ConcurrentHashMap<>();
        List<ApiClient.Device> httpDevices = new ArrayList<>();
        List<ApiClient.Device> mqttDevices = new ArrayList<>();
        for (int i = 0; i < HTTP_DEVICES; i++) {
            httpDevices.add(api.createDevice("sigkill-http-" + i));
        }
        for (int i = 0; i < MQTT_DEVICES; i++) {
            mqttDevices.add(api.createDevice("sigkill-mqtt-" + i));
        }
        httpDevices.forEach(device -> answered.put(device.id(), ConcurrentHashMap.newKeySet()));
        mqttDevices.forEach(device -> answered.put(device.id(), ConcurrentHashMap.newKeySet()));

        AtomicInteger total = new AtomicInteger();
        List<String> failed = Collections.synchronizedList(new ArrayList<>());
        ExecutorService clients = Executors.newFixedThreadPool(HTTP_POSTERS + MQTT_DEVICES);
        List<MqttDevice> connections = new ArrayList<>();
        try {
            for (int poster = 0; poster < HTTP_POSTERS; poster++) {
                ApiClient.Device device = httpDevices.get(poster % HTTP_DEVICES);
                long firstSeq = poster * 1_000_000L;
                clients.submit(() -> SigtermEndToEndTest.postUntilRefused(api, device, firstSeq, answered.get(device.id()),
                        total, failed));
            }
            for (ApiClient.Device device : mqttDevices) {
                MqttDevice mqtt = MqttDevice.connect(app.mqttPort(), device.token(), MQTT_WINDOW + 10);
                connections.add(mqtt);
                clients.submit(() -> SigtermEndToEndTest.publishUntilClosed(mqtt, MQTT_WINDOW, answered.get(device.id()), total));
            }
            await().atMost(WAIT).until(() -> total.get() >= ANSWERED_BEFORE_KILL);

            assertThat(app.kill(Duration.ofSeconds(30))).as("the application ends on SIGKILL").isTrue();
            clients.shutdown();
            assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).as("the clients see the app gone").isTrue();
        } finally {
            clients.shutdownNow();
            connections.forEach(MqttDevice::close);
        }

        // the app starts again on what the crash left, then stops so that the database can be read from here
        app = AppProcess.start(url, "384m", profile);
        assertThat(app.terminate(Duration.ofSeconds(90))).as("the restarted application stops; log %s", app.log()).isTrue();

        int checked = 0;
        int missing = 0;
        List<String> devicesMissing = new ArrayList<>();
        try (Connection connection = postgres ? DriverManager.getConnection(url, TestPostgres.USER, TestPostgres.USER)
                : DriverManager.getConnection(url, "sa", "")) {
            for (Map.Entry<UUID, Set<Long>> device : answered.entrySet()) {
                Set<Long> lost = new HashSet<>(device.getValue());
                lost.removeAll(GracefulShutdownEndToEndTest.storedSeqs(connection, device.getKey()));
                if (!lost.isEmpty()) {
                    devicesMissing.add(device.getKey() + ": " + lost.size() + " of " + device.getValue().size());
                }
                missing += lost.size();
                checked += device.getValue().size();
            }
            // a reading's history row and its key's latest value are one transaction: the crash split none of them
            try (var disagreeing = connection.createStatement().executeQuery("SELECT COUNT(*) FROM (SELECT device_id, ts_key, "
                    + "MAX(ts) newest FROM ts_kv GROUP BY device_id, ts_key) h LEFT JOIN ts_kv_latest l "
                    + "ON l.device_id = h.device_id AND l.ts_key = h.ts_key WHERE l.ts IS NULL OR l.ts <> h.newest")) {
                disagreeing.next();
                assertThat(disagreeing.getLong(1)).as("keys whose latest value is not their newest history row").isZero();
            }
        }
        log.info("SIGKILL on {}: {} readings answered 200 or PUBACKed before the kill, {} missing after the restart",
                database, checked, missing);
        assertThat(devicesMissing).as("readings answered 200 or PUBACKed but missing after SIGKILL (%d of %d); app log %s",
                missing, checked, appLog).isEmpty();
        assertThat(checked).isGreaterThanOrEqualTo(ANSWERED_BEFORE_KILL);
        assertThat(failed).as("requests answered 500 before the kill; app log %s", appLog).isEmpty();
    }
}
