package io.tbactors.sample.iot.e2e;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * A device on the MQTT device API through Eclipse Paho's client (MQTT 3.1.1): connected with its access token as
 * user name, clean session, no automatic reconnect.
 */
final class MqttDevice implements AutoCloseable {

    static final String TELEMETRY = "v1/devices/me/telemetry";
    static final String ATTRIBUTES = "v1/devices/me/attributes";

    private final MqttAsyncClient client;
    private final CountDownLatch lost = new CountDownLatch(1);
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();

    /**
     * A message the server published to the device.
     *
     * @param topic its topic
     * @param payload its payload
     * @param qos the QoS it came with
     * @param id its packet id (QoS 1), for {@link #acknowledge} when the device acknowledges by hand
     */
    record Received(String topic, String payload, int qos, int id) {
    }

    private MqttDevice(MqttAsyncClient client) {
        this.client = client;
    }

    /**
     * @param port the MQTT port
     * @param token the device's access token
     * @param maxInflight most QoS 1 messages the client keeps unacknowledged
     * @return the connected device
     * @throws MqttException when the connection is refused (e.g. {@code REASON_CODE_NOT_AUTHORIZED})
     */
    static MqttDevice connect(int port, String token, int maxInflight) throws MqttException {
        return connect(port, token, maxInflight, false);
    }

    /**
     * @param port the MQTT port
     * @param token the device's access token
     * @param maxInflight most QoS 1 messages the client keeps unacknowledged
     * @param manualAcks whether the QoS 1 messages the server publishes are acknowledged only by {@link #acknowledge}
     * @return the connected device
     * @throws MqttException when the connection is refused
     */
    static MqttDevice connect(int port, String token, int maxInflight, boolean manualAcks) throws MqttException {
        MqttAsyncClient client = new MqttAsyncClient("tcp://localhost:" + port, "test-" + UUID.randomUUID().toString()
                .substring(0, 8), new MemoryPersistence());
        MqttDevice device = new MqttDevice(client);
        client.setCallback(new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {
                device.lost.countDown();
            }

            @Override
            public void messageArrived(String topic, MqttMessage message) {
                device.received.add(new Received(topic, new String(message.getPayload(), StandardCharsets.UTF_8),
                        message.getQos(), message.getId()));
            }

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {
            }
        });
        client.setManualAcks(manualAcks);
        MqttConnectOptions options = new MqttConnectOptions();
        options.setUserName(token);
        options.setCleanSession(true);
        options.setAutomaticReconnect(false);
        options.setMaxInflight(maxInflight);
        options.setKeepAliveInterval(60);
        options.setConnectionTimeout(10);
        options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        try {
            client.connect(options).waitForCompletion(15_000);
        } catch (MqttException e) {
            closeQuietly(client);
            throw e;
        }
        return device;
    }

    /**
     * @param topic where
     * @param payload the JSON
     * @param qos 0 or 1
     * @return the token, complete when acknowledged (QoS 1) or written (QoS 0)
     * @throws MqttException when it cannot be sent
     */
    IMqttDeliveryToken publish(String topic, String payload, int qos) throws MqttException {
        return publish(topic, payload.getBytes(StandardCharsets.UTF_8), qos);
    }

    IMqttDeliveryToken publish(String topic, byte[] payload, int qos) throws MqttException {
        return client.publish(topic, payload, qos, false);
    }

    IMqttDeliveryToken publish(String topic, String payload, int qos, IMqttActionListener listener) throws MqttException {
        return client.publish(topic, payload.getBytes(StandardCharsets.UTF_8), qos, false, null, listener);
    }

    /**
     * Publishes with QoS 1 and waits for the PUBACK.
     *
     * @param topic where
     * @param payload the JSON
     * @throws MqttException when it was not acknowledged within 15 s
     */
    void publishAndWait(String topic, String payload) throws MqttException {
        IMqttToken token = publish(topic, payload, 1);
        token.waitForCompletion(15_000);
    }

    /**
     * Subscribes with QoS 1 and waits for the SUBACK.
     *
     * @param topics the topic filters
     * @return the QoS granted per filter (128 for a refusal)
     * @throws MqttException when the SUBACK did not come within 15 s
     */
    int[] subscribe(String... topics) throws MqttException {
        int[] qos = new int[topics.length];
        Arrays.fill(qos, 1);
        IMqttToken token = client.subscribe(topics, qos);
        token.waitForCompletion(15_000);
        return token.getGrantedQos();
    }

    /**
     * Subscribes with the QoS given and waits for the SUBACK.
     *
     * @param qos the QoS asked for every filter
     * @param topics the topic filters
     * @return the QoS granted per filter (128 for a refusal)
     * @throws MqttException when the SUBACK did not come within 15 s
     */
    int[] subscribeAt(int qos, String... topics) throws MqttException {
        int[] asked = new int[topics.length];
        Arrays.fill(asked, qos);
        IMqttToken token = client.subscribe(topics, asked);
        token.waitForCompletion(15_000);
        return token.getGrantedQos();
    }

    /**
     * Sends the PUBACK of a QoS 1 message received (with manual acknowledgements).
     *
     * @param message the message
     * @throws MqttException when it cannot be sent
     */
    void acknowledge(Received message) throws MqttException {
        client.messageArrivedComplete(message.id(), message.qos());
    }

    /**
     * @param topics the topic filters
     * @throws MqttException when the UNSUBACK did not come within 15 s
     */
    void unsubscribe(String... topics) throws MqttException {
        client.unsubscribe(topics).waitForCompletion(15_000);
    }

    /**
     * @param timeout how long to wait
     * @return the next message the server published to the device, or null when none came in time
     * @throws InterruptedException when interrupted
     */
    Received next(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean isConnected() {
        return client.isConnected();
    }

    /** @return counts down when the server closes the connection */
    CountDownLatch lost() {
        return lost;
    }

    @Override
    public void close() {
        closeQuietly(client);
    }

    private static void closeQuietly(MqttAsyncClient client) {
        try {
            if (client.isConnected()) {
                client.disconnectForcibly(0, 1000);
            }
        } catch (MqttException ignored) {
            // already gone
        }
        try {
            client.close(true);
        } catch (MqttException ignored) {
            // already closed
        }
    }
}
