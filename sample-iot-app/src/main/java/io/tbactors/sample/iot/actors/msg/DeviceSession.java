package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * A device's connection as its device actor sees it: what the actor can push to the device. A transport (MQTT, an
 * HTTP long poll) implements it and registers it with {@link SessionSubscribeMsg}. The actor calls it on its own
 * thread: an implementation hands the work to its connection's thread and returns at once.
 */
public interface DeviceSession {

    /** @return the session's id, unique among the device's sessions */
    UUID sessionId();

    /**
     * Pushes a server-side RPC request to the device.
     *
     * @param requestId the id the device answers with ({@code v1/devices/me/rpc/response/{id}})
     * @param method the method
     * @param params the parameters (any JSON)
     * @return false when the session is gone, so the request stays waiting for another one
     */
    boolean sendRpcRequest(int requestId, String method, JsonNode params);

    /**
     * Whether this session tells the device's actor when a request it took reached the device
     * ({@link RpcDeliveryMsg}: an MQTT session subscribed at QoS 1 on the device's PUBACK, an HTTP long poll once its
     * answer is written) rather than the request counting as delivered once {@link #sendRpcRequest} took it (MQTT QoS
     * 0). Asked right after {@link #sendRpcRequest} returned true, on the actor's thread.
     *
     * @return true when the session confirms delivery; the default, false
     */
    default boolean confirmsRpcDelivery() {
        return false;
    }

    /**
     * Pushes changed shared attributes to the device ({@code v1/devices/me/attributes}).
     *
     * @param changed key to new value
     * @return false when the session is gone
     */
    boolean sendAttributesUpdate(JsonNode changed);
}
