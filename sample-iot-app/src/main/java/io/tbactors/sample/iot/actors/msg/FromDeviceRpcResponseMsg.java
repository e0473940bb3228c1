package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * A device's answer to a server-side RPC request ({@code v1/devices/me/rpc/response/{id}}, or {@code POST
 * /api/v1/{token}/rpc/{id}}).
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param requestId the id the request was sent with
 * @param response the answer as the device sent it
 */
public record FromDeviceRpcResponseMsg(UUID tenantId, UUID deviceId, int requestId, String response)
        implements DeviceAwareMsg {
}
