package io.tbactors.sample.iot.downlink;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.spring.ActorSystemContext;
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

    /**
     * @param actorSystemContext takes the requests to the device actors
     * @param properties {@code sample.rpc.*}
     */
    public DeviceRpcService(ActorSystemContext actorSystemContext, SampleProperties properties) {
        this.actorSystemContext = actorSystemContext;
        this.settings = properties.getRpc();
    }

    /**
     * A request as ThingsBoard's RPC API takes it.
     *
     * @param method the method, required
     * @param params the parameters, any JSON; {@code {}} when absent
     * @param timeout milliseconds to wait for a session and (two-way) the answer; {@code sample.rpc.default-timeout}
     *     when absent
     * @param persistent whether it is kept in the database until delivered (not available yet: refused)
     */
    public record RpcRequest(String method, JsonNode params, Long timeout, Boolean persistent) {
    }

    /**
     * @param device the device
     * @param oneway one-way (done once sent) or two-way (done once answered)
     * @param request the body
     * @return completes once, with how the request ended (never exceptionally)
     * @throws ApiException 400 for a body that is not a valid request, 503 while the actors are not running
     */
    public CompletableFuture<RpcOutcome> send(Device device, boolean oneway, RpcRequest request) {
        if (request == null || request.method() == null || request.method().isBlank()) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The RPC request has no \"method\": send "
                    + "{\"method\": \"...\", \"params\": {...}, \"timeout\": <milliseconds>}");
        }
        long timeoutMs = timeoutMs(request.timeout());
        if (Boolean.TRUE.equals(request.persistent())) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "Persistent RPC (\"persistent\": true) is not available in "
                    + "this version: send the request without it, it waits for the device for its timeout");
        }
        JsonNode params = request.params() == null || request.params().isNull() ? JsonNodeFactory.instance.objectNode()
                : request.params();
        CompletableFuture<RpcOutcome> outcome = new CompletableFuture<>();
        try {
            actorSystemContext.tell(new ToDeviceRpcMsg(device.tenantId(), device.id(), UUID.randomUUID(), oneway,
                    request.method(), params, timeoutMs, outcome));
        } catch (IllegalStateException notRunning) {
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "The RPC request was not sent: the actors are not "
                    + "running (the node is starting or stopping); send it again later");
        }
        return outcome;
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
