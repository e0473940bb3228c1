package io.tbactors.sample.iot.actors.msg;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorStopReason;
import io.tbactors.sample.iot.telemetry.TsEntry;

/**
 * Telemetry or attributes a device posted, on its way to the device's actor. {@code accepted} completes when the
 * device actor has taken the message into the rule engine, or exceptionally when an actor on the way stopped, so
 * the HTTP request that waits on it always gets an answer.
 *
 * @param tenantId the tenant
 * @param deviceId the device
 * @param msgType {@code POST_TELEMETRY_REQUEST} or {@code POST_ATTRIBUTES_REQUEST}
 * @param entries the readings, one entry per time (attributes: one entry without a time)
 * @param accepted completed on acceptance
 */
public record DeviceDataMsg(UUID tenantId, UUID deviceId, String msgType, List<TsEntry> entries,
                            CompletableFuture<Void> accepted) implements TenantAwareMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        accepted.completeExceptionally(new MessageNotAcceptedException(reason));
    }
}
