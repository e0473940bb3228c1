package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * A session that {@linkplain DeviceSession#confirmsRpcDelivery() confirms delivery} tells its device's actor what
 * became of a server-side RPC request it was handed: the device acknowledged it (an MQTT PUBACK of the request's QoS 1
 * PUBLISH; an HTTP long poll's answer written), or it never reached the device (the connection closed first).
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param sessionId the session
 * @param requestId the request's id
 * @param delivered true: the device has it (DELIVERED); false: it did not reach the device, so it waits for the next
 *     session
 */
public record RpcDeliveryMsg(UUID tenantId, UUID deviceId, UUID sessionId, int requestId, boolean delivered)
        implements DeviceAwareMsg {
}
