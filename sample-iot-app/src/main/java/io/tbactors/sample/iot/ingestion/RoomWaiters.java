package io.tbactors.sample.iot.ingestion;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Requests held while their device or tenant has no room in flight ({@link InFlightLimiter}), at most a few per
 * tenant, in the order they came: when room comes back, the oldest held request of that tenant with room now is woken,
 * one at a time, and each woken request, once it has taken its room or failed to, wakes the next if room is left
 * ({@link #roomFreed}). A hold ends without room after its longest wait. A held request keeps its body, unparsed, and
 * no thread; the rest are refused at once, as without holding.
 */
final class RoomWaiters {

    /** One held request. */
    private record Waiter(UUID tenantId, UUID deviceId, int values, CompletableFuture<Boolean> room) {
    }

    private final InFlightLimiter limiter;
    private final int maxPerTenant;
    private final long holdMillis;
    private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
    private final Map<UUID, Integer> heldByTenant = new HashMap<>();
    /** Requests held now, for reports; changed under the lock. */
    private final AtomicInteger held = new AtomicInteger();

    /**
     * @param limiter the bounds whose room is waited for
     * @param maxPerTenant most requests held at once per tenant; 0 holds none
     * @param holdMillis longest a request is held; 0 holds none
     */
    RoomWaiters(InFlightLimiter limiter, int maxPerTenant, long holdMillis) {
        this.limiter = limiter;
        this.maxPerTenant = maxPerTenant;
        this.holdMillis = holdMillis;
    }

    /**
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param values the values the request needs room for (1 while its body is unparsed)
     * @return completes with true when there may be room now (the caller then tries, and calls {@link #roomFreed}
     *     after), false when the hold ended without; null when the request cannot be held (its tenant has the most
     *     held, or holding is off)
     */
    CompletableFuture<Boolean> await(UUID tenantId, UUID deviceId, int values) {
        if (maxPerTenant == 0 || holdMillis == 0) {
            return null;
        }
        Waiter waiter = new Waiter(tenantId, deviceId, values, new CompletableFuture<>());
        synchronized (this) {
            int tenantHeld = heldByTenant.getOrDefault(tenantId, 0);
            if (tenantHeld >= maxPerTenant) {
                return null;
            }
            heldByTenant.put(tenantId, tenantHeld + 1);
            waiting.add(waiter);
            held.incrementAndGet();
        }
        CompletableFuture.delayedExecutor(holdMillis, TimeUnit.MILLISECONDS).execute(() -> {
            if (claim(waiter)) {
                waiter.room().complete(false);
            }
        });
        // room may have come back between the caller's check and the add, with no release left to wake this one
        roomFreed(tenantId);
        return waiter.room();
    }

    /**
     * Room of the tenant may be free: wakes its oldest held request that has room now, if any. Called on every
     * release, and by a woken request after its try.
     *
     * @param tenantId the tenant
     */
    void roomFreed(UUID tenantId) {
        if (maxPerTenant == 0 || holdMillis == 0) {
            return;
        }
        Waiter woken = null;
        // Under the lock on every release, even with nothing held: a check of the count outside it could miss a hold
        // taken at this moment, whose own look at the room could then miss this release's room (the release's map
        // write and the hold's count write, each followed by a read of the other's, are not ordered without a fence).
        // Uncontended, the lock costs tens of ns against the 100 us or more of CPU a request takes (2 cores at about
        // 12,500 single readings a second), so it is not skipped.
        synchronized (this) {
            for (Waiter waiter : waiting) {
                if (waiter.tenantId().equals(tenantId) && limiter.hasRoom(tenantId, waiter.deviceId(), waiter.values())) {
                    woken = waiter;
                    break;
                }
            }
            if (woken != null) {
                claim(woken);
            }
        }
        if (woken != null) {
            woken.room().complete(true);
        }
    }

    /** Ends every hold without room: the application stops. */
    void releaseAll() {
        List<Waiter> all;
        synchronized (this) {
            all = new ArrayList<>(waiting);
            all.forEach(this::claim);
        }
        all.forEach(waiter -> waiter.room().complete(false));
    }

    /** @return requests held now */
    int held() {
        return held.get();
    }

    /**
     * Ends a hold before it is completed, so that it no longer counts once its request goes on.
     *
     * @return whether this call ended it (it was still held): the caller then completes it, once
     */
    private synchronized boolean claim(Waiter waiter) {
        if (!waiting.remove(waiter)) {
            return false;
        }
        heldByTenant.computeIfPresent(waiter.tenantId(), (tenant, count) -> count == 1 ? null : count - 1);
        held.decrementAndGet();
        return true;
    }
}
