package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * The rule chain's answer to a device's own RPC request, from an {@code rpc-call-reply} node to the device's actor,
 * which hands it to the session that waits for it (or counts and drops it when that request no longer waits).
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param sessionId the waiting session (the request message's metadata {@code sessionId})
 * @param requestId the request's id in that session (metadata {@code requestId})
 * @param response the answer, JSON
 */
public record ToServerRpcResponseMsg(UUID tenantId, UUID deviceId, UUID sessionId, int requestId, String response)
        implements DeviceAwareMsg {
}
