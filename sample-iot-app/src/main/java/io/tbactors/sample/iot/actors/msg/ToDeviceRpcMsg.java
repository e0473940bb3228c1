package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorStopReason;
import tools.jackson.databind.JsonNode;

/**
 * A server-side RPC request on its way to the device's actor, which sends it to the device's sessions subscribed to
 * RPC (or keeps it until one subscribes) and completes {@code outcome} exactly once: with the device's answer, with
 * the timeout, or with a failure and its reason (never left pending).
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param rpcId the request's id (ThingsBoard's {@code requestUUID})
 * @param oneway whether the device answers (false) or the request is done once sent (true)
 * @param method the method
 * @param params the parameters
 * @param timeoutMs not persistent: how long it waits for a session and, two-way, for the answer; persistent: how long
 *     it waits for the answer once sent
 * @param persistent whether it is stored ({@code rpc} table) with its state, kept until {@code expirationTime} for a
 *     session and restored when the device's actor starts again
 * @param expirationTime persistent: after when it is no longer sent (EXPIRED), epoch ms; else 0
 * @param outcome completed once, with how it ended
 */
public record ToDeviceRpcMsg(UUID tenantId, UUID deviceId, UUID rpcId, boolean oneway, String method, JsonNode params,
                             long timeoutMs, boolean persistent, long expirationTime, CompletableFuture<RpcOutcome> outcome)
        implements DeviceAwareMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        outcome.complete(RpcOutcome.failed(reason == TbActorStopReason.INIT_FAILED
                ? "the device's actor could not start (the device may have been deleted)"
                : "the device's actor stopped (" + reason + ") before the request reached it: the node is stopping "
                        + "or the device was deleted"));
    }
}
