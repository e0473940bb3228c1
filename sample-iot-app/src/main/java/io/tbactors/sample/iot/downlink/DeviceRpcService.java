package io.tbactors.sample.iot.downlink;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.RpcStatus;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.cluster.ClusterDeviceSessions;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.storage.RpcDao;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.spring.ActorSystemContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Sends server-side RPC requests to devices' actors: the management API's {@code /api/rpc/oneway} and
 * {@code /api/rpc/twoway}, and the console.
 */
@Service
public class DeviceRpcService {

    private final ActorSystemContext actorSystemContext;
    private final SampleProperties.Rpc settings;
    private final RpcDao rpcDao;
    private ClusterDeviceSessions cluster;

    /**
     * @param actorSystemContext takes the requests to the device actors
     * @param properties {@code sample.rpc.*}
     * @param rpcDao stores persistent requests
     */
    public DeviceRpcService(ActorSystemContext actorSystemContext, SampleProperties properties, RpcDao rpcDao) {
        this.actorSystemContext = actorSystemContext;
        this.settings = properties.getRpc();
        this.rpcDao = rpcDao;
    }

    /** @param cluster with the {@code cluster} profile, takes the requests to the device's owner node */
    @Autowired(required = false)
    void setCluster(ClusterDeviceSessions cluster) {
        this.cluster = cluster;
    }

    /**
     * @param device the device
     * @return its persistent requests, newest first
     */
    public List<RpcDao.StoredRpc> persistent(Device device) {
        return rpcDao.findByDevice(device.id());
    }

    /**
     * @param rpcId a persistent request
     * @return it
     * @throws ApiException 404 when there is none with that id
     */
    public RpcDao.StoredRpc persistent(UUID rpcId) {
        return rpcDao.findById(rpcId).orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND,
                "No persistent RPC request " + rpcId));
    }

    /**
     * A request as ThingsBoard's RPC API takes it.
     *
     * @param method the method, required
     * @param params the parameters, any JSON; {@code {}} when absent
     * @param timeout milliseconds to wait for a session and (two-way) the answer; {@code sample.rpc.default-timeout}
     *     when absent
     * @param persistent whether it is stored with its state ({@code rpc} table) until it ends, kept for a session until
     *     its expiration time, and restored after a restart
     * @param expirationTime persistent: after when it is no longer sent, epoch ms; {@code now + timeout} when absent
     */
    public record RpcRequest(String method, JsonNode params, Long timeout, Boolean persistent, Long expirationTime) {
    }

    /**
     * @param device the device
     * @param oneway one-way (done once sent) or two-way (done once answered)
     * @param request the body
     * @return its id and its outcome; a persistent request's outcome is not waited for: its state is in the table
     * @throws ApiException 400 for a body that is not a valid request, 503 while the actors are not running
     */
    public Sent send(Device device, boolean oneway, RpcRequest request) {
        if (request == null || request.method() == null || request.method().isBlank()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The RPC request has no \"method\": send "
                    + "{\"method\": \"...\", \"params\": {...}, \"timeout\": <milliseconds>}");
        }
        long timeoutMs = timeoutMs(request.timeout());
        boolean persistent = Boolean.TRUE.equals(request.persistent());
        long now = System.currentTimeMillis();
        long expirationTime = !persistent ? 0 : request.expirationTime() != null ? request.expirationTime() : now + timeoutMs;
        if (persistent && expirationTime <= now) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "\"expirationTime\" " + expirationTime + " has passed; it is "
                    + "the time (epoch milliseconds) until which a persistent request waits for the device");
        }
        JsonNode params = request.params() == null || request.params().isNull() ? JsonNodeFactory.instance.objectNode()
                : request.params();
        UUID rpcId = UUID.randomUUID();
        if (persistent) {
            // stored before the actor hears of it: a 200 with its id means it survives a stop
            rpcDao.insert(new RpcDao.StoredRpc(rpcId, device.tenantId(), device.id(), now, expirationTime, oneway,
                    request.method(), params.toString(), timeoutMs, RpcStatus.QUEUED.name(), null, null));
        }
        CompletableFuture<RpcOutcome> outcome = new CompletableFuture<>();
        ToDeviceRpcMsg msg = new ToDeviceRpcMsg(device.tenantId(), device.id(), rpcId, oneway, request.method(), params, timeoutMs,
                persistent, expirationTime, outcome);
        if (cluster != null) {
            cluster.request(msg);
            return new Sent(rpcId, outcome);
        }
        try {
            actorSystemContext.tell(msg);
        } catch (IllegalStateException notRunning) {
            if (persistent) {
                // stored: its device's actor restores it when it starts
                return new Sent(rpcId, CompletableFuture.completedFuture(new RpcOutcome(RpcStatus.QUEUED, null, null, false)));
            }
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "The RPC request was not sent: the actors are not "
                    + "running (the node is starting or stopping); send it again later");
        }
        return new Sent(rpcId, outcome);
    }

    /**
     * A request on its way.
     *
     * @param rpcId its id (a persistent request's key in the table)
     * @param outcome completes once, with how it ended (never exceptionally)
     */
    public record Sent(UUID rpcId, CompletableFuture<RpcOutcome> outcome) {
    }

    /** @return the timeout of the longest request, for the HTTP request that waits for it */
    public Duration getMaxTimeout() {
        return settings.getMaxTimeout();
    }

    private long timeoutMs(Long requested) {
        if (requested == null) {
            return settings.getDefaultTimeout().toMillis();
        }
        long max = settings.getMaxTimeout().toMillis();
        if (requested <= 0 || requested > max) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "\"timeout\" is " + requested + " ms; it must be between 1 and "
                    + max + " ms (sample.rpc.max-timeout)");
        }
        return requested;
    }
}
