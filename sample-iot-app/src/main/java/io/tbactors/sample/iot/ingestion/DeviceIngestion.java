package io.tbactors.sample.iot.ingestion;

import io.tbactors.sample.iot.actors.msg.TsEntry;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.actors.msg.DeviceDataMsg;
import io.tbactors.sample.iot.cluster.ClusterDevicePublisher;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.spring.ActorSystemContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The one way readings enter the rule engine, whatever transport brought them (HTTP, MQTT): it takes room for their
 * values (key-value pairs, what costs memory) in the {@link InFlightLimiter}, hands the readings to the device's actor
 * (or, with the {@code cluster} profile, to the device's owner node) and returns the future that completes when the
 * tenant's root rule chain has stored them. The room is given back when that future completes, not when the client is
 * answered.
 */
@Component
public class DeviceIngestion {

    private final ActorSystemContext actorSystemContext;
    private final InFlightLimiter limiter;
    private final IotStats stats;
    private ClusterDevicePublisher clusterPublisher;

    /**
     * @param actorSystemContext takes the readings to the root actor
     * @param limiter the in-flight bounds
     * @param stats counts refusals
     */
    public DeviceIngestion(ActorSystemContext actorSystemContext, InFlightLimiter limiter, IotStats stats) {
        this.actorSystemContext = actorSystemContext;
        this.limiter = limiter;
        this.stats = stats;
    }

    /** @param clusterPublisher with the {@code cluster} profile, sends device messages to the device's owner node */
    @Autowired(required = false)
    void setClusterPublisher(ClusterDevicePublisher clusterPublisher) {
        this.clusterPublisher = clusterPublisher;
    }

    /**
     * The check before a message is parsed: refuses when the device or its tenant has no room for even one value.
     *
     * @param device the authenticated device
     * @return null when {@link #submit} may admit the message, else the refusal ({@link Refusal#IN_FLIGHT_FULL})
     */
    public Admission checkRoom(Device device) {
        String full = limiter.checkRoom(device.tenantId(), device.id());
        if (full == null) {
            return null;
        }
        stats.deviceRejected();
        return Admission.refused(Refusal.IN_FLIGHT_FULL, full);
    }

    /**
     * Holds a request that found no room until room may be there ({@code sample.device-api.hold-when-full}).
     *
     * @param device the authenticated device
     * @param values the values it needs room for (1 while its body is unparsed)
     * @return completes with true when there may be room now (the request is admitted only by {@link #submit}, and
     *     {@link #passRoomOn} follows its try), false when the hold ended without; null when it cannot be held
     */
    public CompletableFuture<Boolean> awaitRoom(Device device, int values) {
        return limiter.awaitRoom(device.tenantId(), device.id(), values);
    }

    /**
     * A request woken from its hold has tried to take its room: the tenant's next held request gets its turn if room
     * is left.
     *
     * @param device the request's device
     */
    public void passRoomOn(Device device) {
        limiter.passRoomOn(device.tenantId());
    }

    /**
     * Looks for room without taking it or counting a refusal: before an HTTP request is held, and before an MQTT message
     * already parsed once and refused is tried again.
     *
     * @param device the authenticated device
     * @param values the values wanted (1 for a body not parsed yet)
     * @return whether the device and its tenant have room for them now
     */
    public boolean hasRoom(Device device, int values) {
        return limiter.hasRoom(device.tenantId(), device.id(), values);
    }

    /**
     * Admits a message's readings into the rule engine, or says why not.
     *
     * @param device the authenticated device
     * @param msgType {@code POST_TELEMETRY_REQUEST} or {@code POST_ATTRIBUTES_REQUEST}
     * @param entries the parsed readings, at least one
     * @return accepted with the future that completes once stored, or refused with the reason
     */
    public Admission submit(Device device, String msgType, List<TsEntry> entries) {
        int values = valuesOf(entries);
        if (values > limiter.getPerDevice()) {
            return Admission.refused(Refusal.TOO_LARGE, "The message carries " + values + " values (key-value pairs) in "
                    + entries.size() + " reading(s); at most " + limiter.getPerDevice() + " values fit in one message "
                    + "(sample.device-api.max-in-flight-per-device)");
        }
        String full = limiter.tryAcquire(device.tenantId(), device.id(), values);
        if (full != null) {
            stats.deviceRejected();
            return Admission.refused(Refusal.IN_FLIGHT_FULL, full);
        }
        CompletableFuture<Void> processed = new CompletableFuture<>();
        // the room is given back when the work is done, not when the client is answered (a timeout answers earlier)
        processed.whenComplete((ok, failure) -> limiter.release(device.tenantId(), device.id(), values));
        try {
            DeviceDataMsg msg = new DeviceDataMsg(device.tenantId(), device.id(), msgType, entries, processed);
            if (clusterPublisher != null) {
                clusterPublisher.publish(msg).whenComplete((ok, failure) -> {
                    if (failure == null) {
                        processed.complete(null);
                    } else {
                        processed.completeExceptionally(failure);
                    }
                });
            } else {
                actorSystemContext.tell(msg);
            }
        } catch (IllegalStateException notStartedYet) {
            // a transport starts a moment before the root actor exists
            processed.completeExceptionally(notStartedYet);
            stats.deviceRejected();
            return Admission.refused(Refusal.NOT_STARTED, "The message was not accepted, send it again later: the actors "
                    + "are starting");
        }
        return new Admission(null, null, processed);
    }

    /**
     * @param entries a message's readings
     * @return the values (key-value pairs) they take room for in flight; a reading counts at least one
     */
    public static int valuesOf(List<TsEntry> entries) {
        int values = 0;
        for (TsEntry entry : entries) {
            // a reading counts at least one, whatever it carries: its message costs memory too
            values += Math.max(1, entry.values().size());
        }
        return values;
    }

    /** Why a message was not admitted. */
    public enum Refusal {
        /** More values in one message than the per-device bound: it can never fit (HTTP 413; MQTT: disconnect). */
        TOO_LARGE,
        /** The device's or the tenant's values in flight are at their bound: retry later (HTTP 429). */
        IN_FLIGHT_FULL,
        /** The actors are not running yet (HTTP 503). */
        NOT_STARTED
    }

    /**
     * The outcome of {@link #submit}.
     *
     * @param refusal why it was refused, null when accepted
     * @param detail what was full or wrong, for the client, null when accepted
     * @param processed completes once stored (exceptionally when not), null when refused
     */
    public record Admission(Refusal refusal, String detail, CompletableFuture<Void> processed) {

        static Admission refused(Refusal refusal, String detail) {
            return new Admission(refusal, detail, null);
        }

        /** @return whether the readings were handed to the rule engine */
        public boolean accepted() {
            return refusal == null;
        }
    }
}
