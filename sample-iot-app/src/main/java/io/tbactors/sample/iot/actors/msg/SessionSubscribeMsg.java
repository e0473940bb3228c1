package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * A session subscribes to what its device's actor pushes, or gives a subscription up (also when it closes): server-side
 * RPC requests (MQTT {@code SUBSCRIBE v1/devices/me/rpc/request/+}, an HTTP long poll on {@code /api/v1/{token}/rpc})
 * or shared-attribute updates ({@code v1/devices/me/attributes}, {@code /api/v1/{token}/attributes/updates}). A
 * session subscribing to RPC is sent, at once, the requests that wait for the device.
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param session the session
 * @param topic what it subscribes to
 * @param subscribe true to subscribe, false to unsubscribe
 */
public record SessionSubscribeMsg(UUID tenantId, UUID deviceId, DeviceSession session, Topic topic, boolean subscribe)
        implements DeviceAwareMsg {

    /** What a session can subscribe to. */
    public enum Topic {
        /** Server-side RPC requests. */
        RPC,
        /** Shared-attribute updates. */
        ATTRIBUTES
    }
}
