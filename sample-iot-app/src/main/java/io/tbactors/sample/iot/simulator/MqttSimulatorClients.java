package io.tbactors.sample.iot.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.device.Device;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * The simulator's MQTT transport: one Eclipse Paho client per simulated device, connected with the device's access
 * token, reconnecting by itself; each reading is a QoS 1 message on {@code v1/devices/me/telemetry}, sent when its
 * PUBACK (stored) arrives.
 */
final class MqttSimulatorClients implements AutoCloseable {

    private static final String TELEMETRY_TOPIC = "v1/devices/me/telemetry";

    private final List<MqttAsyncClient> clients = new ArrayList<>();

    /**
     * Connects every device, waiting for each CONNACK.
     *
     * @param port the MQTT device API's port
     * @param devices the simulated devices
     * @param maxInFlight most unacknowledged messages per client
     * @throws MqttException when a device cannot connect
     */
    MqttSimulatorClients(int port, List<Device> devices, int maxInFlight) throws MqttException {
        for (Device device : devices) {
            MqttAsyncClient client = new MqttAsyncClient("tcp://localhost:" + port, device.name(), new MemoryPersistence());
            clients.add(client);
            MqttConnectOptions options = new MqttConnectOptions();
            options.setUserName(device.accessToken());
            options.setAutomaticReconnect(true);
            options.setCleanSession(true);
            options.setMaxInflight(maxInFlight);
            client.connect(options).waitForCompletion(10_000);
        }
    }

    /**
     * @param device index of the device, as given
     * @param reading the JSON
     * @return completes with true once acknowledged (stored), false when it was not
     */
    CompletableFuture<Boolean> send(int device, String reading) {
        CompletableFuture<Boolean> stored = new CompletableFuture<>();
        try {
            clients.get(device).publish(TELEMETRY_TOPIC, reading.getBytes(StandardCharsets.UTF_8), 1, false, null,
                    new IMqttActionListener() {
                        @Override
                        public void onSuccess(IMqttToken token) {
                            stored.complete(true);
                        }

                        @Override
                        public void onFailure(IMqttToken token, Throwable failure) {
                            stored.complete(false);
                        }
                    });
        } catch (MqttException notSent) {
            stored.complete(false);
        }
        return stored;
    }

    @Override
    public void close() {
        for (MqttAsyncClient client : clients) {
            try {
                if (client.isConnected()) {
                    client.disconnect(1000).waitForCompletion(2000);
                }
                client.close(true);
            } catch (MqttException alreadyGone) {
                // stopping anyway
            }
        }
    }
}
