package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MQTT device API's promise about a stop, through a real one: the application runs in its own JVM on an H2 file,
 * devices publish QoS 1 readings over MQTT with many unacknowledged at a time, the JVM gets SIGTERM, and then the
 * file is opened again: every reading that got its PUBACK must be in it.
 */
class MqttSigtermEndToEndTest {

    private static final int DEVICES = 8;
    private static final int WINDOW = 200;
    private static final int ACKNOWLEDGED_BEFORE_STOP = 3000;

    @TempDir
    Path dir;

    private AppProcess app;

    @AfterEach
    void killWhatIsLeft() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aSigtermWhileDevicesPublishLosesNoReadingThatWasAcknowledged() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("sample-iot").toAbsolutePath();
        app = AppProcess.start(url, "384m");
        Path log = app.log();
        ApiClient api = app.api();
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            devices.add(api.createDevice("mqtt-sigterm-device-" + i));
        }

        ConcurrentHashMap<UUID, Set<Long>> acknowledged = new ConcurrentHashMap<>();
        AtomicInteger total = new AtomicInteger();
        ExecutorService publishers = Executors.newFixedThreadPool(DEVICES);
        List<MqttDevice> clients = new ArrayList<>();
        try {
            for (ApiClient.Device device : devices) {
                Set<Long> acks = ConcurrentHashMap.newKeySet();
                acknowledged.put(device.id(), acks);
                MqttDevice mqtt = MqttDevice.connect(app.mqttPort(), device.token(), WINDOW + 10);
                clients.add(mqtt);
                publishers.submit(() -> publishUntilClosed(mqtt, acks, total));
            }
            await().atMost(Duration.ofSeconds(120)).until(() -> total.get() >= ACKNOWLEDGED_BEFORE_STOP);

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
        assertThat(checked).isGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_STOP);
    }

    private static void publishUntilClosed(MqttDevice mqtt, Set<Long> acks, AtomicInteger total) {
        Semaphore window = new Semaphore(WINDOW);
        try {
            for (long seq = 0; mqtt.isConnected(); seq++) {
                if (!window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    seq--;
                    continue;
                }
                long mine = seq;
                IMqttActionListener listener = new IMqttActionListener() {
                    @Override
                    public void onSuccess(IMqttToken token) {
                        acks.add(mine);
                        total.incrementAndGet();
                        window.release();
                    }

                    @Override
                    public void onFailure(IMqttToken token, Throwable failure) {
                        window.release();
                    }
                };
                mqtt.publish(MqttDevice.TELEMETRY, "{\"seq\": " + seq + "}", 1, listener);
            }
        } catch (MqttException | InterruptedException closed) {
            // the server went away: the test checks what was acknowledged before
        }
    }
}
