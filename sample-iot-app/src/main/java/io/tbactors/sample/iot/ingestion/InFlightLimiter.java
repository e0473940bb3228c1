package io.tbactors.sample.iot.ingestion;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.tbactors.sample.iot.config.SampleProperties;
import jakarta.annotation.PreDestroy;
import org.springframework.stereotype.Component;

/**
 * Counts the values in flight per device and per tenant (accepted by the device API, not yet through the root rule
 * chain) and refuses what would pass {@code sample.device-api.max-in-flight-per-device} or
 * {@code max-in-flight-per-tenant}. A value is one key-value pair of a reading: it is what costs memory in flight (its
 * parsed entry, its rows in each write queue with their futures), so a reading of 4,300 keys counts 4,300 and a
 * reading of one key counts 1; every reading has at least one value, so what a reading costs beside its values (its
 * rule-engine message) is bounded too. Everything the rule engine queues belongs to some request in flight, so these
 * two bounds bound every queue of the rule engine. A device or tenant with nothing in flight has no entry.
 */
@Component
public class InFlightLimiter {

    private final int perDevice;
    private final int perTenant;
    private final Map<UUID, Integer> byDevice = new ConcurrentHashMap<>();
    private final Map<UUID, Integer> byTenant = new ConcurrentHashMap<>();
    private final LongAdder refused = new LongAdder();
    private volatile long lastRefusalNanos;
    private volatile boolean everRefused;
    private final RoomWaiters waiters;

    /** @param properties the bounds */
    public InFlightLimiter(SampleProperties properties) {
        this.perDevice = properties.getDeviceApi().getMaxInFlightPerDevice();
        this.perTenant = properties.getDeviceApi().getMaxInFlightPerTenant();
        this.waiters = new RoomWaiters(this, properties.getDeviceApi().getMaxHeldRequestsPerTenant(),
                properties.getDeviceApi().getHoldWhenFull().toMillis());
    }

    /**
     * Holds a request that found no room until room may be there ({@code sample.device-api.hold-when-full}, at most
     * {@code max-held-requests-per-tenant} of a tenant at once), oldest first.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param values the values it needs room for (1 while its body is unparsed)
     * @return completes with true when there may be room now (then {@link #passRoomOn} must follow the request's
     *     try), false when the hold ended without; null when it cannot be held: holding is off, the tenant has the
     *     most held, or the values exceed the device bound and never fit
     */
    public CompletableFuture<Boolean> awaitRoom(UUID tenantId, UUID deviceId, int values) {
        return values > perDevice ? null : waiters.await(tenantId, deviceId, values);
    }

    /**
     * A request woken from its hold has tried to take its room, successfully or not: wakes the tenant's next held
     * request if room is left.
     *
     * @param tenantId the tenant
     */
    public void passRoomOn(UUID tenantId) {
        waiters.roomFreed(tenantId);
    }

    /** @return requests held for room now */
    public int getHeldRequests() {
        return waiters.held();
    }

    /** Ends every hold, with no room: the application stops. */
    @PreDestroy
    public void releaseHeld() {
        waiters.releaseAll();
    }

    /**
     * Takes room for a request's values, or says why there is none.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param values how many values (key-value pairs) the request's readings carry, at most the device bound
     * @return null when admitted (then {@link #release} must follow), else what is full, for the client
     */
    public String tryAcquire(UUID tenantId, UUID deviceId, int values) {
        if (!add(byDevice, deviceId, values, perDevice)) {
            return deviceFull(byDevice.getOrDefault(deviceId, 0));
        }
        if (!add(byTenant, tenantId, values, perTenant)) {
            subtract(byDevice, deviceId, values);
            return tenantFull(byTenant.getOrDefault(tenantId, 0));
        }
        return null;
    }

    /**
     * Says, without taking anything, when the device or its tenant has no room for even one value: a message can
     * then be refused before its body is parsed. With room, {@link #tryAcquire} still decides.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @return null when there is room for a value, else what is full, for the client (counted as a refusal)
     */
    public String checkRoom(UUID tenantId, UUID deviceId) {
        int device = byDevice.getOrDefault(deviceId, 0);
        if (device >= perDevice) {
            return deviceFull(device);
        }
        int tenant = byTenant.getOrDefault(tenantId, 0);
        return tenant >= perTenant ? tenantFull(tenant) : null;
    }

    /**
     * Says, without taking or counting anything, whether the device and its tenant have room for some values now: a
     * sender that already knows a message's values waits for room without parsing it again.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param values how many values
     * @return whether {@link #tryAcquire} of that many would succeed now (barring a race)
     */
    public boolean hasRoom(UUID tenantId, UUID deviceId, int values) {
        return byDevice.getOrDefault(deviceId, 0) + values <= perDevice && byTenant.getOrDefault(tenantId, 0) + values <= perTenant;
    }

    /**
     * Gives back what {@link #tryAcquire} took, once the readings have left the rule engine.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param values as acquired
     */
    public void release(UUID tenantId, UUID deviceId, int values) {
        subtract(byDevice, deviceId, values);
        subtract(byTenant, tenantId, values);
        waiters.roomFreed(tenantId);
    }

    /** @return values in flight over all tenants */
    public long getInFlightValues() {
        return byTenant.values().stream().mapToLong(Integer::longValue).sum();
    }

    /** @return requests refused so far */
    public long getRefused() {
        return refused.sum();
    }

    /**
     * @param windowNanos how far back to look
     * @return whether a request was refused within that time
     */
    public boolean refusedWithin(long windowNanos) {
        return everRefused && System.nanoTime() - lastRefusalNanos <= windowNanos;
    }

    /** @return the per-device bound */
    public int getPerDevice() {
        return perDevice;
    }

    /** @return the per-tenant bound */
    public int getPerTenant() {
        return perTenant;
    }

    private String deviceFull(int inFlight) {
        return refuse("the device has " + inFlight + " value(s) in flight; at most " + perDevice
                + " (sample.device-api.max-in-flight-per-device)");
    }

    private String tenantFull(int inFlight) {
        return refuse("the tenant has " + inFlight + " value(s) in flight; at most " + perTenant
                + " (sample.device-api.max-in-flight-per-tenant)");
    }

    private String refuse(String why) {
        refused.increment();
        lastRefusalNanos = System.nanoTime();
        everRefused = true;
        return why;
    }

    private static boolean add(Map<UUID, Integer> counts, UUID id, int values, int bound) {
        boolean[] added = new boolean[1];
        counts.compute(id, (key, current) -> {
            int now = current == null ? 0 : current;
            if (now + values > bound) {
                return current;
            }
            added[0] = true;
            return now + values;
        });
        return added[0];
    }

    private static void subtract(Map<UUID, Integer> counts, UUID id, int values) {
        counts.computeIfPresent(id, (key, current) -> current - values <= 0 ? null : current - values);
    }
}
