package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorMsg;

import tools.jackson.databind.JsonNode;

/**
 * A device's own RPC request (client-side RPC) on its way from the node holding the device's connection to the
 * device's owner node (the {@code cluster} profile), whose device actor sends it through the tenant's root chain:
 * {@link ToServerRpcRequestMsg} without its future, with the node and the call to send the chain's answer back to.
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param sessionId the session that waits for the answer
 * @param requestId the request's id in that session
 * @param method the method
 * @param params the parameters, JSON text
 * @param callId names the waiting call on the origin node
 * @param originNode the node holding the device's connection
 */
public record ClusterClientRpcRequest(UUID tenantId, UUID deviceId, UUID sessionId, int requestId, String method,
                                      String params, UUID callId, String originNode) implements TbActorMsg {

    /** Name of this type in the records, as registered under {@code tb.actors.cluster.message-types}. */
    public static final String TYPE = "client-rpc-request";

    /**
     * @param msg a request taken on this node
     * @param callId names the call waiting here
     * @param originNode this node
     * @return the request to send to the device's owner
     */
    public static ClusterClientRpcRequest of(ToServerRpcRequestMsg msg, UUID callId, String originNode) {
        return new ClusterClientRpcRequest(msg.tenantId(), msg.deviceId(), msg.sessionId(), msg.requestId(), msg.method(),
                msg.params() == null ? null : msg.params().toString(), callId, originNode);
    }

    /**
     * @param parsedParams the parameters, parsed
     * @param sessions where the answer goes back to the origin node
     * @return the request for the device's actor on the owner node
     */
    public ToServerRpcRequestMsg toLocal(JsonNode parsedParams, RemoteSessions sessions) {
        CompletableFuture<RpcOutcome> reply = new CompletableFuture<>();
        reply.thenAccept(ended -> sessions.outcome(originNode, callId, ended));
        return new ToServerRpcRequestMsg(tenantId, deviceId, sessionId, requestId, method, parsedParams, reply);
    }
}
