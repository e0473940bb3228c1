package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import lombok.extern.slf4j.Slf4j;
import org.junit.jupiter.api.Test;

/**
 * The wide-reading attack, against the app in its own JVM at {@code -Xmx256m} on an H2 file: devices send readings of
 * 4,300 keys each (about 62 KB, under the 64 KB payload limit) as fast as the server lets them, over MQTT QoS 1 (one
 * connection per device, publishing without waiting for PUBACKs) and over HTTP (many connections, each posting again
 * as soon as it is answered, whatever the answer). The in-flight bounds count values, so the app must stay alive: its
 * health answers all along, the live data after garbage collection stays under three quarters of the heap, it never
 * runs out of heap, and every reading answered 200 or PUBACKed is in the file with all of its keys.
 */
@Slf4j
class WideReadingEndToEndTest extends AppProcessTest {

    private static final int KEYS = 4300;
    /** The keys and values of every wide reading, built once: the clients spend their CPU on sending. */
    private static final String WIDE_VALUES = wideValues();
    private static final Duration ATTACK = Duration.ofSeconds(20);
    private static final long MAX_LIVE_DATA = 192L * 1024 * 1024;
    /** Longest wait for a health answer: on an idle machine it comes within a second; this one is shared. */
    private static final Duration HEALTH_ANSWER = Duration.ofSeconds(10);

    @Test
    void wideReadingsOverMqttLeaveTheAppAliveAndEveryAcknowledgedOneStored() throws Exception {
        String url = databaseUrl("h2");
        app = AppProcess.start(url, "256m");
        List<ApiClient.Device> devices = createDevices("wide-mqtt-", 8);
        Map<UUID, Set<Long>> acknowledged = new ConcurrentHashMap<>();
        AtomicBoolean attacking = new AtomicBoolean(true);
        LongAdder connectionsLost = new LongAdder();
        ExecutorService clients = Executors.newFixedThreadPool(devices.size() * 2);
        List<BenchConnections.Mqtt> connections = new ArrayList<>();
        AtomicLong nextTs = new AtomicLong(System.currentTimeMillis() - Duration.ofHours(1).toMillis());
        for (ApiClient.Device device : devices) {
            Set<Long> acks = ConcurrentHashMap.newKeySet();
            acknowledged.put(device.id(), acks);
            BenchConnections.Mqtt mqtt = BenchConnections.Mqtt.connect(app.mqttPort(), device.token(), MqttDevice.TELEMETRY);
            connections.add(mqtt);
            Queue<Long> sent = new ConcurrentLinkedQueue<>();
            clients.submit(() -> {
                try {
                    while (attacking.get()) {
                        long ts = nextTs.incrementAndGet();
                        sent.add(ts);
                        mqtt.publish(wideReading(ts));
                        mqtt.flush();
                    }
                } catch (IOException lost) {
                    if (attacking.get()) {
                        connectionsLost.increment();
                    }
                }
                return null;
            });
            clients.submit(() -> {
                try {
                    while (true) {
                        mqtt.awaitPuback();
                        acks.add(sent.remove());
                    }
                } catch (IOException endedOrClosed) {
                    return null;
                }
            });
        }
        try {
            attackWhileHealthAnswers(attacking);
        } finally {
            attacking.set(false);
        }
        // what the connections hold unread (their TCP buffers) would keep the app busy long after the attack: they
        // close, and only what was PUBACKed before counts
        connections.forEach(BenchConnections.Mqtt::abort);
        clients.shutdown();
        assertThat(clients.awaitTermination(30, TimeUnit.SECONDS)).as("the clients end with their connections").isTrue();
        assertStoredAndAlive(url, devices, acknowledged, "PUBACKed");
        log.info("wide readings over MQTT: {} PUBACKed and stored, {} connections lost during the attack",
                totalOf(acknowledged), connectionsLost.sum());
        assertThat(connectionsLost.sum()).as("connections the server closed during the attack; log %s", app.log()).isZero();
    }

    @Test
    void wideReadingsOverHttpLeaveTheAppAliveAndEveryAnsweredOneStored() throws Exception {
        String url = databaseUrl("h2");
        app = AppProcess.start(url, "256m");
        List<ApiClient.Device> devices = createDevices("wide-http-", 8);
        int connections = 150;
        Map<UUID, Set<Long>> answered200 = new ConcurrentHashMap<>();
        devices.forEach(device -> answered200.put(device.id(), ConcurrentHashMap.newKeySet()));
        Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        LongAdder dropped = new LongAdder();
        AtomicBoolean attacking = new AtomicBoolean(true);
        AtomicLong nextTs = new AtomicLong(System.currentTimeMillis() - Duration.ofHours(1).toMillis());
        ExecutorService clients = Executors.newFixedThreadPool(connections);
        List<java.util.concurrent.Future<?>> posting = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            ApiClient.Device device = devices.get(i % devices.size());
            posting.add(clients.submit(() -> {
                try (BenchConnections.Http http = new BenchConnections.Http(app.port())) {
                    while (attacking.get()) {
                        long ts = nextTs.incrementAndGet();
                        try {
                            BenchConnections.Answer answer = http.post("/api/v1/" + device.token() + "/telemetry", wideReading(ts));
                            statuses.computeIfAbsent(answer.status(), s -> new LongAdder()).increment();
                            if (answer.status() == 200) {
                                answered200.get(device.id()).add(ts);
                            }
                        } catch (IOException connectionDropped) {
                            dropped.increment();
                        }
                    }
                }
                return null;
            }));
        }
        try {
            attackWhileHealthAnswers(attacking);
        } finally {
            attacking.set(false);
        }
        for (java.util.concurrent.Future<?> future : posting) {
            future.get(90, TimeUnit.SECONDS);
        }
        clients.shutdown();
        assertStoredAndAlive(url, devices, answered200, "answered 200");
        Map<Integer, Long> counts = new HashMap<>();
        statuses.forEach((status, count) -> counts.put(status, count.sum()));
        log.info("wide readings over HTTP: answers by status {}, {} connections dropped", counts, dropped.sum());
        assertThat(dropped.sum()).as("connections dropped instead of answered; answers %s", counts).isZero();
    }

    private List<ApiClient.Device> createDevices(String prefix, int count) {
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            devices.add(app.api().createDevice(prefix + i));
        }
        return devices;
    }

    /**
     * Probes health every half second while the attack runs: each probe must be answered in time. The live data after
     * the JVM's last collection of the old generation is sampled too: it must stay well under the heap's size.
     */
    private void attackWhileHealthAnswers(AtomicBoolean attacking) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(HEALTH_ANSWER).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://localhost:" + app.port() + "/actuator/health"))
                .timeout(HEALTH_ANSWER).GET().build();
        ApiClient api = app.api();
        long end = System.nanoTime() + ATTACK.toNanos();
        int probes = 0;
        long liveDataMax = 0;
        long slowestNanos = 0;
        while (System.nanoTime() < end) {
            long started = System.nanoTime();
            HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
            slowestNanos = Math.max(slowestNanos, System.nanoTime() - started);
            assertThat(answer.statusCode()).as("health during the attack (UP or OVERLOADED); log %s", app.log()).isIn(200, 503);
            probes++;
            liveDataMax = Math.max(liveDataMax, (long) api.metric("jvm.gc.live.data.size"));
            long waitNanos = TimeUnit.MILLISECONDS.toNanos(500) - (System.nanoTime() - started);
            if (waitNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            }
        }
        log.info("wide-reading attack: {} health probes answered, the slowest in {} ms; live data after GC at most {} MB",
                probes, TimeUnit.NANOSECONDS.toMillis(slowestNanos), liveDataMax / (1024 * 1024));
        assertThat(probes).isPositive();
        assertThat(liveDataMax).as("live data after GC, of a 256 MB heap; log %s", app.log()).isLessThan(MAX_LIVE_DATA);
    }

    private void assertStoredAndAlive(String url, List<ApiClient.Device> devices, Map<UUID, Set<Long>> answered, String how)
            throws Exception {
        assertThat(app.isAlive()).as("the app lives; log %s", app.log()).isTrue();
        assertThat(app.api().getWithoutCredentials("/actuator/health").status()).isIn(200, 503);
        // what was answered is in the file already (SigkillEndToEndTest): no need to wait for a graceful stop
        assertThat(app.kill(Duration.ofSeconds(30))).as("the app ends on SIGKILL; log %s", app.log()).isTrue();
        assertThat(Files.readString(app.log())).as("the app's log %s", app.log()).doesNotContain("OutOfMemoryError");
        assertThat(totalOf(answered)).as("readings %s", how).isPositive();
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            for (ApiClient.Device device : devices) {
                Map<Long, Integer> keysByTs = storedKeysByTs(connection, device.id());
                for (long ts : answered.get(device.id())) {
                    assertThat(keysByTs.getOrDefault(ts, 0)).as("keys stored of the reading at %d of %s, %s; log %s",
                            ts, device.id(), how, app.log()).isEqualTo(KEYS);
                }
            }
        }
    }

    private static Map<Long, Integer> storedKeysByTs(Connection connection, UUID deviceId) throws Exception {
        Map<Long, Integer> keys = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT ts, COUNT(*) FROM ts_kv WHERE device_id = ? GROUP BY ts")) {
            statement.setObject(1, deviceId);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    keys.put(rs.getLong(1), rs.getInt(2));
                }
            }
        }
        return keys;
    }

    private static long totalOf(Map<UUID, Set<Long>> readings) {
        return readings.values().stream().mapToLong(Set::size).sum();
    }

    /** @return one reading of {@value #KEYS} numeric keys at the given time, about 60 KB of JSON */
    static byte[] wideReading(long ts) {
        return ("{\"ts\": " + ts + ", \"values\": {" + WIDE_VALUES + "}}").getBytes(StandardCharsets.UTF_8);
    }

    private static String wideValues() {
        StringBuilder json = new StringBuilder(64 * 1024);
        for (int key = 0; key < KEYS; key++) {
            json.append(key == 0 ? "\"" : ",\"").append(String.format(Locale.ROOT, "k%05d", key)).append("\":").append(key);
        }
        return json.toString();
    }
}
