package io.tbactors.sample.iot.transport.mqtt;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * Counters of the MQTT device API, published as {@code sample.iot.mqtt.messages} (tag {@code result}:
 * {@code stored}, {@code invalid}, {@code failed}, {@code dropped}), {@code sample.iot.mqtt.connects} (tag
 * {@code result}: {@code accepted}, {@code refused}), {@code sample.iot.mqtt.connections} (open, authenticated)
 * and {@code sample.iot.mqtt.read.pauses} (times a connection stopped being read because its work in flight was at
 * its bound).
 */
@Component
@ConditionalOnBooleanProperty(name = "sample.mqtt.enabled", matchIfMissing = true)
public class MqttMetrics implements MeterBinder {

    private final LongAdder stored = new LongAdder();
    private final LongAdder invalid = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder connectsAccepted = new LongAdder();
    private final LongAdder connectsRefused = new LongAdder();
    private final LongAdder readPauses = new LongAdder();
    private final LongAdder publishesRead = new LongAdder();
    private final LongAdder sentToDevice = new LongAdder();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger pausedConnections = new AtomicInteger();

    void stored() {
        stored.increment();
    }

    void invalid() {
        invalid.increment();
    }

    void failed() {
        failed.increment();
    }

    void dropped(int messages) {
        dropped.add(messages);
    }

    void connectAccepted() {
        connectsAccepted.increment();
        connections.incrementAndGet();
    }

    void connectRefused() {
        connectsRefused.increment();
    }

    void connectionClosed() {
        connections.decrementAndGet();
    }

    void sentToDevice() {
        sentToDevice.increment();
    }

    void publishRead() {
        publishesRead.increment();
    }

    void readPaused(boolean paused) {
        if (paused) {
            readPauses.increment();
            pausedConnections.incrementAndGet();
        } else {
            pausedConnections.decrementAndGet();
        }
    }

    /** @return messages stored (QoS 1: acknowledged) so far */
    public long getStored() {
        return stored.sum();
    }

    /** @return messages rejected for their content or topic so far */
    public long getInvalid() {
        return invalid.sum();
    }

    /** @return messages taken into the rule engine but not stored so far */
    public long getFailed() {
        return failed.sum();
    }

    /** @return messages read but never taken into the rule engine (their connection closed first) so far */
    public long getDropped() {
        return dropped.sum();
    }

    /** @return PUBLISH packets read from the connections so far */
    public long getPublishesRead() {
        return publishesRead.sum();
    }

    /** @return CONNECTs refused so far */
    public long getConnectsRefused() {
        return connectsRefused.sum();
    }

    /** @return authenticated connections open now */
    public int getConnections() {
        return connections.get();
    }

    /** @return connections not being read now, because their work in flight is at its bound */
    public int getPausedConnections() {
        return pausedConnections.get();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String messages = "MQTT device API messages by result";
        counter(registry, "sample.iot.mqtt.messages", "stored", stored, messages);
        counter(registry, "sample.iot.mqtt.messages", "invalid", invalid, messages);
        counter(registry, "sample.iot.mqtt.messages", "failed", failed, messages);
        counter(registry, "sample.iot.mqtt.messages", "dropped", dropped, messages);
        counter(registry, "sample.iot.mqtt.connects", "accepted", connectsAccepted, "MQTT CONNECTs by result");
        counter(registry, "sample.iot.mqtt.connects", "refused", connectsRefused, "MQTT CONNECTs by result");
        FunctionCounter.builder("sample.iot.mqtt.published", sentToDevice, LongAdder::sum)
                .description("PUBLISH packets sent to devices (RPC requests, answers, attribute responses)").register(registry);
        FunctionCounter.builder("sample.iot.mqtt.read.pauses", readPauses, LongAdder::sum)
                .description("Times a connection stopped being read because its work in flight was at its bound")
                .register(registry);
        Gauge.builder("sample.iot.mqtt.connections", connections, AtomicInteger::get)
                .description("Authenticated MQTT connections open").register(registry);
        Gauge.builder("sample.iot.mqtt.connections.paused", pausedConnections, AtomicInteger::get)
                .description("MQTT connections not being read (back-pressure)").register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String result, LongAdder adder, String description) {
        FunctionCounter.builder(name, adder, LongAdder::sum).tag("result", result).description(description).register(registry);
    }
}
