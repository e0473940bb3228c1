package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorStopReason;
import tools.jackson.databind.JsonNode;

/**
 * A device's own RPC request to the server (client-side RPC: MQTT {@code v1/devices/me/rpc/request/{id}}, HTTP
 * {@code POST /api/v1/{token}/rpc}). The device's actor makes it a rule-engine message of type
 * {@code TO_SERVER_RPC_REQUEST} through the tenant's root chain, where an {@code rpc-call-reply} node answers it
 * ({@link ToServerRpcResponseMsg}), and completes {@code reply} exactly once: with the chain's answer
 * ({@link RpcStatus#SUCCESSFUL}), with {@link RpcStatus#TIMEOUT} when nothing answered in time, or with
 * {@link RpcStatus#FAILED} and the reason (refused: too many waiting; the actor stopped).
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param sessionId the session that waits for the answer (an MQTT connection, one HTTP request)
 * @param requestId the request's id within its session (MQTT: the topic's; HTTP: the transport's)
 * @param method the method
 * @param params the parameters (any JSON; {@code {}} when the device sent none)
 * @param reply completed once with how the request ended
 */
public record ToServerRpcRequestMsg(UUID tenantId, UUID deviceId, UUID sessionId, int requestId, String method,
                                    JsonNode params, CompletableFuture<RpcOutcome> reply) implements DeviceAwareMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        reply.complete(RpcOutcome.failed("the device's actor stopped (" + reason + ") before the request reached it"));
    }
}
