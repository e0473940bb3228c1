package io.tbactors.sample.iot.telemetry;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.tbactors.sample.iot.config.SampleProperties;
import org.springframework.stereotype.Component;

/**
 * Counts the readings in flight per device and per tenant (accepted by the device API, not yet through the root
 * rule chain) and refuses what would pass {@code sample.device-api.max-in-flight-per-device} or
 * {@code max-in-flight-per-tenant}. Everything the rule engine queues belongs to some request in flight, so these
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

    /** @param properties the bounds */
    public InFlightLimiter(SampleProperties properties) {
        this.perDevice = properties.getDeviceApi().getMaxInFlightPerDevice();
        this.perTenant = properties.getDeviceApi().getMaxInFlightPerTenant();
    }

    /**
     * Takes room for a request's readings, or says why there is none.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param readings how many readings the request carries, at most the device bound
     * @return null when admitted (then {@link #release} must follow), else what is full, for the client
     */
    public String tryAcquire(UUID tenantId, UUID deviceId, int readings) {
        if (!add(byDevice, deviceId, readings, perDevice)) {
            return deviceFull(byDevice.getOrDefault(deviceId, 0));
        }
        if (!add(byTenant, tenantId, readings, perTenant)) {
            subtract(byDevice, deviceId, readings);
            return tenantFull(byTenant.getOrDefault(tenantId, 0));
        }
        return null;
    }

    /**
     * Says, without taking anything, when the device or its tenant has no room for even one reading: a message can
     * then be refused before its body is parsed. With room, {@link #tryAcquire} still decides.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @return null when there is room for a reading, else what is full, for the client (counted as a refusal)
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
     * Gives back what {@link #tryAcquire} took, once the readings have left the rule engine.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param readings as acquired
     */
    public void release(UUID tenantId, UUID deviceId, int readings) {
        subtract(byDevice, deviceId, readings);
        subtract(byTenant, tenantId, readings);
    }

    /** @return readings in flight over all tenants */
    public long getInFlightReadings() {
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
        return refuse("the device has " + inFlight + " reading(s) in flight; at most " + perDevice
                + " (sample.device-api.max-in-flight-per-device)");
    }

    private String tenantFull(int inFlight) {
        return refuse("the tenant has " + inFlight + " reading(s) in flight; at most " + perTenant
                + " (sample.device-api.max-in-flight-per-tenant)");
    }

    private String refuse(String why) {
        refused.increment();
        lastRefusalNanos = System.nanoTime();
        everRefused = true;
        return why;
    }

    private static boolean add(Map<UUID, Integer> counts, UUID id, int readings, int bound) {
        boolean[] added = new boolean[1];
        counts.compute(id, (key, current) -> {
            int now = current == null ? 0 : current;
            if (now + readings > bound) {
                return current;
            }
            added[0] = true;
            return now + readings;
        });
        return added[0];
    }

    private static void subtract(Map<UUID, Integer> counts, UUID id, int readings) {
        counts.computeIfPresent(id, (key, current) -> current - readings <= 0 ? null : current - readings);
    }
}
