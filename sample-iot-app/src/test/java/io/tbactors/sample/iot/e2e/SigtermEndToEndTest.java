package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promise about a stop, tested through a real one: the application runs in its own JVM on an H2 file database
 * given as the README gives it (a plain {@code jdbc:h2:file:} URL), 50 threads post readings, the JVM gets SIGTERM
 * ({@link Process#destroy()}), and then the file is opened again: every reading answered 200 must be in it, and no
 * request may fail with 500 because H2's own shutdown hook closed the database while the actors drained. The same
 * again on the postgres profile, against the test run's PostgreSQL server (see {@link TestPostgres}): the pool must
 * close only after the actors and the write queues have drained. And once more over MQTT: every reading acknowledged
 * with a PUBACK must be in the file.
 */
class SigtermEndToEndTest extends AppProcessTest {

    private static final int DEVICES = 10;
    private static final int POSTERS = 50;
    private static final int ANSWERED_BEFORE_STOP = 1500;
    private static final int MQTT_DEVICES = 8;
    private static final int MQTT_WINDOW = 200;
    private static final int MQTT_ACKNOWLEDGED_BEFORE_STOP = 3000;

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void aSigtermWhileDevicesPostLosesNoReadingThatWasAnswered200(String database) throws Exception {
        boolean postgres = database.equals("postgres");
        String url = databaseUrl(database);
        app = postgres ? AppProcess.start(url, "384m", "--spring.profiles.active=postgres") : AppProcess.start(url, "384m");
        Path log = app.log();
        ApiClient api = app.api();
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            devices.add(api.createDevice("sigterm-device-" + i));
        }

        ConcurrentHashMap<UUID, Set<Long>> answered200 = new ConcurrentHashMap<>();
        devices.forEach(device -> answered200.put(device.id(), ConcurrentHashMap.newKeySet()));
        AtomicInteger total = new AtomicInteger();
        List<String> failed = Collections.synchronizedList(new ArrayList<>());
        ExecutorService posters = Executors.newFixedThreadPool(POSTERS);
        for (int poster = 0; poster < POSTERS; poster++) {
            ApiClient.Device device = devices.get(poster % DEVICES);
            long firstSeq = poster * 1_000_000L;
            posters.submit(() -> postUntilRefused(api, device, firstSeq, answered200.get(device.id()), total, failed));
        }
        await().atMost(Duration.ofSeconds(120)).until(() -> total.get() >= ANSWERED_BEFORE_STOP);

        assertThat(app.terminate(Duration.ofSeconds(90))).as("the application ends after SIGTERM; its log: %s", log).isTrue();
        posters.shutdown();
        assertThat(posters.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        int checked = 0;
        try (Connection connection = postgres ? DriverManager.getConnection(url, TestPostgres.USER, TestPostgres.USER)
                : DriverManager.getConnection(url, "sa", "")) {
            for (ApiClient.Device device : devices) {
                Set<Long> answered = answered200.get(device.id());
                assertThat(GracefulShutdownEndToEndTest.storedSeqs(connection, device.id()))
                        .as("readings of %s answered 200; app log %s", device.id(), log).containsAll(answered);
                checked += answered.size();
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(ANSWERED_BEFORE_STOP);
        // accepted work drains into an open database: no request fails because the stop closed it early
        assertThat(failed).as("requests answered 500 during the stop; app log %s", log).isEmpty();
    }

    /**
     * Posts numbered single readings ({@code {"seq": n}}) one after the other until one is not answered 200 or the
     * connection fails, as a device whose server went away.
     *
     * @param api the app
     * @param device the device posting
     * @param firstSeq the first number; the poster counts up from it
     * @param answered where the numbers answered 200 go
     * @param total counts every reading answered 200
     * @param failed where the bodies of 500 answers go
     */
    static void postUntilRefused(ApiClient api, ApiClient.Device device, long firstSeq, Set<Long> answered,
                                 AtomicInteger total, List<String> failed) {
        for (long seq = firstSeq; seq < firstSeq + 1_000_000; seq++) {
            try {
                ApiClient.Response response = api.postAsDevice(device.token(), "telemetry", "{\"seq\": " + seq + "}");
                if (response.status() == 500) {
                    failed.add(response.body());
                }
                if (response.status() != 200) {
                    return;
                }
            } catch (IllegalStateException connectionClosed) {
                return;
            }
            answered.add(seq);
            total.incrementAndGet();
        }
    }

    /**
     * The same promise for the MQTT device API: devices publish QoS 1 readings with many unacknowledged at a time;
     * every reading that got its PUBACK must be in the file.
     *
     * @throws Exception when the app or the database fails
     */
    @Test
    void aSigtermWhileDevicesPublishLosesNoReadingThatWasAcknowledged() throws Exception {
        String url = databaseUrl("h2");
        app = AppProcess.start(url, "384m");
        Path log = app.log();
        ApiClient api = app.api();
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < MQTT_DEVICES; i++) {
            devices.add(api.createDevice("mqtt-sigterm-device-" + i));
        }

        ConcurrentHashMap<UUID, Set<Long>> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger total = new AtomicInteger();
        ExecutorService publishers = Executors.newFixedThreadPool(MQTT_DEVICES);
        List<MqttDevice> clients = new ArrayList<>();
        try {
            for (ApiClient.Device device : devices) {
                Set<Long> acks = ConcurrentHashMap.newKeySet();
                acknowledged.put(device.id(), acks);
                MqttDevice mqtt = MqttDevice.connect(app.mqttPort(), device.token(), MQTT_WINDOW + 10);
                clients.add(mqtt);
                publishers.submit(() -> publishUntilClosed(mqtt, MQTT_WINDOW, acks, total));
            }
            await().atMost(Duration.ofSeconds(120)).until(() -> total.get() >= MQTT_ACKNOWLEDGED_BEFORE_STOP);

            assertThat(app.terminate(Duration.ofSeconds(90))).as("the application ends after SIGTERM; its log: %s", log)
                    .isTrue();
            publishers.shutdown();
            assertThat(publishers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            publishers.shutdownNow();
            clients.forEach(MqttDevice::close);
        }

        assertThat(Files.readString(log)).as("the MQTT server drained; log %s", log).contains("MQTT device API stopped");
        int checked = 0;
        try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
            for (ApiClient.Device device : devices) {
                Set<Long> acks = acknowledged.get(device.id());
                assertThat(GracefulShutdownEndToEndTest.storedSeqs(connection, device.id()))
                        .as("readings of %s acknowledged with PUBACK; app log %s", device.id(), log).containsAll(acks);
                checked += acks.size();
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(MQTT_ACKNOWLEDGED_BEFORE_STOP);
    }

    /**
     * Publishes numbered QoS 1 readings ({@code {"seq": n}}), up to {@code window} unacknowledged at a time, until the
     * connection is lost.
     *
     * @param mqtt the device's connection
     * @param window the most readings without their PUBACK
     * @param acks where the numbers acknowledged with a PUBACK go
     * @param total counts every PUBACK
     */
    static void publishUntilClosed(MqttDevice mqtt, int window, Set<Long> acks, AtomicInteger total) {
        Semaphore unacknowledged = new Semaphore(window);
        try {
            for (long seq = 0; mqtt.isConnected(); seq++) {
                if (!unacknowledged.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    seq--;
                    continue;
                }
                long mine = seq;
                IMqttActionListener listener = new IMqttActionListener() {
                    @Override
                    public void onSuccess(IMqttToken token) {
                        acks.add(mine);
                        total.incrementAndGet();
                        unacknowledged.release();
                    }

                    @Override
                    public void onFailure(IMqttToken token, Throwable failure) {
                        unacknowledged.release();
                    }
                };
                mqtt.publish(MqttDevice.TELEMETRY, "{\"seq\": " + seq + "}", 1, listener);
            }
        } catch (MqttException | InterruptedException closed) {
            // the server went away: the test checks what was acknowledged before
        }
    }
}
