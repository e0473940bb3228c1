package io.tbactors.sample.iot.storage;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.tbactors.core.dispatch.NamedThreadFactory;
import jakarta.annotation.PreDestroy;
import lombok.extern.slf4j.Slf4j;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The persistent RPC requests ({@code rpc} table) and their states. State changes come from device actors, which must
 * not wait for the database: they are written in order by one thread of their own; one that fails is logged at WARN
 * and counted ({@link #getFailedUpdates()}), the request's state in the table then lags behind.
 */
@Slf4j
@Repository
public class RpcDao {

    /** States in which a request is still to be sent or answered (restored when its device's actor starts). */
    public static final List<String> ACTIVE = List.of("QUEUED", "SENT");

    private final JdbcClient jdbc;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(new NamedThreadFactory("rpc-store"));
    private final LongAdder failedUpdates = new LongAdder();

    /** @param jdbc the database */
    public RpcDao(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A persistent request as stored.
     *
     * @param id the request's id (ThingsBoard's {@code rpcId})
     * @param tenantId the tenant
     * @param deviceId the device
     * @param createdTime when it was sent, epoch ms
     * @param expirationTime after when it is no longer sent (EXPIRED), epoch ms
     * @param oneway one-way or two-way
     * @param method the method
     * @param params the parameters, JSON
     * @param timeoutMs how long a sent two-way request waits for its answer
     * @param status its state, {@code RpcStatus}'s name
     * @param response the device's answer, or null
     * @param reason why it failed, or null
     */
    public record StoredRpc(UUID id, UUID tenantId, UUID deviceId, long createdTime, long expirationTime, boolean oneway,
                            String method, String params, long timeoutMs, String status, String response, String reason) {
    }

    /** @param rpc a new request, stored at once (before it is told to its device's actor) */
    public void insert(StoredRpc rpc) {
        jdbc.sql("INSERT INTO rpc (id, tenant_id, device_id, created_time, expiration_time, oneway, method, params, "
                        + "timeout_ms, status, response, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(rpc.id(), rpc.tenantId(), rpc.deviceId(), rpc.createdTime(), rpc.expirationTime(), rpc.oneway(),
                        rpc.method(), rpc.params(), rpc.timeoutMs(), rpc.status(), rpc.response(), rpc.reason())
                .update();
    }

    /**
     * Records a state change, written after the ones recorded before it.
     *
     * @param id the request
     * @param status the new state
     * @param response the device's answer, or null
     * @param reason why it failed or timed out, or null
     */
    public void updateLater(UUID id, String status, String response, String reason) {
        writer.execute(() -> {
            try {
                jdbc.sql("UPDATE rpc SET status = ?, response = ?, reason = ? WHERE id = ?")
                        .params(status, response, reason, id).update();
            } catch (RuntimeException failed) {
                failedUpdates.increment();
                log.warn("The state {} of persistent RPC {} was not stored: {}", status, id, failed.toString());
            }
        });
    }

    /**
     * @param deviceId the device
     * @return its requests still to be sent or answered, oldest first
     */
    public List<StoredRpc> findActive(UUID deviceId) {
        return jdbc.sql("SELECT * FROM rpc WHERE device_id = ? AND (status IN ('QUEUED', 'SENT') "
                        + "OR status = 'DELIVERED' AND NOT oneway) ORDER BY created_time")
                .params(deviceId).query(StoredRpc.class).list();
    }

    /**
     * @param deviceId the device
     * @return its requests, newest first
     */
    public List<StoredRpc> findByDevice(UUID deviceId) {
        return jdbc.sql("SELECT * FROM rpc WHERE device_id = ? ORDER BY created_time DESC").params(deviceId)
                .query(StoredRpc.class).list();
    }

    /**
     * @param id a request
     * @return it, or empty
     */
    public Optional<StoredRpc> findById(UUID id) {
        return jdbc.sql("SELECT * FROM rpc WHERE id = ?").params(id).query(StoredRpc.class).optional();
    }

    /** @return state changes that could not be stored */
    public long getFailedUpdates() {
        return failedUpdates.sum();
    }

    /** Writes what is recorded, before the database closes (a bean stopped before the data source). */
    @PreDestroy
    void stop() throws InterruptedException {
        writer.shutdown();
        if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
            log.warn("Persistent RPC states still unwritten after 10 s at the stop: left out");
        }
    }
}
