package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

import io.tbactors.api.TbActorMsg;

/**
 * A push from a device's actor to one of its sessions connected to another node (the {@code cluster} profile, over the
 * node channel to that node).
 *
 * @param tenantId the device's tenant
 * @param sessionId the session
 * @param deviceId its device
 * @param requestId an RPC request's id; 0 for an attribute update
 * @param method an RPC request's method; null for an attribute update
 * @param body the request's parameters, or the changed attributes, JSON text
 */
public record ToRemoteSessionMsg(UUID tenantId, UUID sessionId, UUID deviceId, int requestId, String method, String body)
        implements TbActorMsg {
}
