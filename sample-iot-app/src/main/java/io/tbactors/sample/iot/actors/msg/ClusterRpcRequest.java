package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorMsg;

import tools.jackson.databind.JsonNode;

/**
 * A server-side RPC request on its way from the caller's node to the device's owner node (the {@code cluster}
 * profile): {@link ToDeviceRpcMsg} without its future, with the node to send the outcome back to.
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param rpcId the request's id
 * @param oneway see {@link ToDeviceRpcMsg}
 * @param method the method
 * @param params the parameters, JSON text
 * @param timeoutMs see {@link ToDeviceRpcMsg}
 * @param persistent see {@link ToDeviceRpcMsg}
 * @param expirationTime see {@link ToDeviceRpcMsg}
 * @param sentAt when the caller's node sent it, epoch ms: a request that reaches the owner after its timeout ends at once
 * @param originNode the node whose caller waits for the outcome; null for a persistent request (its caller reads the
 *     stored state)
 */
public record ClusterRpcRequest(UUID tenantId, UUID deviceId, UUID rpcId, boolean oneway, String method, String params,
                                long timeoutMs, boolean persistent, long expirationTime, long sentAt, String originNode)
        implements TbActorMsg {

    /** Name of this type in the records, as registered under {@code tb.actors.cluster.message-types}. */
    public static final String TYPE = "rpc-request";

    /**
     * @param msg a request taken on this node
     * @param originNode this node
     * @return the request to send to the device's owner
     */
    public static ClusterRpcRequest of(ToDeviceRpcMsg msg, String originNode) {
        return new ClusterRpcRequest(msg.tenantId(), msg.deviceId(), msg.rpcId(), msg.oneway(), msg.method(),
                msg.params().toString(), msg.timeoutMs(), msg.persistent(), msg.expirationTime(), System.currentTimeMillis(),
                msg.persistent() ? null : originNode);
    }

    /**
     * @param params the parameters, parsed
     * @param sessions where the outcome goes back to the caller's node
     * @return the request for the device's actor, or null when its timeout passed on the way (the caller was told)
     */
    public ToDeviceRpcMsg toLocal(JsonNode params, RemoteSessions sessions) {
        CompletableFuture<RpcOutcome> outcome = new CompletableFuture<>();
        if (originNode != null) {
            outcome.thenAccept(ended -> sessions.outcome(originNode, rpcId, ended));
        }
        long travelled = System.currentTimeMillis() - sentAt;
        if (!persistent && travelled >= timeoutMs) {
            outcome.complete(RpcOutcome.timeout("the request took " + travelled + " ms to reach the node that owns device "
                    + deviceId + ", longer than its timeout of " + timeoutMs + " ms"));
            return null;
        }
        return new ToDeviceRpcMsg(tenantId, deviceId, rpcId, oneway, method, params, timeoutMs, persistent, expirationTime,
                outcome);
    }
}
