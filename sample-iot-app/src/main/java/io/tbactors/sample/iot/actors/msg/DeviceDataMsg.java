package io.tbactors.sample.iot.actors.msg;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.MessageNotAcceptedException;

/**
 * Telemetry or attributes a device posted, on its way to the device's actor. {@code processed} completes when the
 * tenant's root rule chain has finished with every reading (every branch, its saves committed); exceptionally with
 * a {@link io.tbactors.rule.RuleChainFailureException} when the chain failed on one, or a
 * {@link MessageNotAcceptedException} when an actor on the way stopped, so the HTTP request that waits on it always
 * gets an answer that says what happened.
 *
 * @param tenantId the tenant
 * @param deviceId the device
 * @param msgType {@code POST_TELEMETRY_REQUEST} or {@code POST_ATTRIBUTES_REQUEST}
 * @param entries the readings, one entry per time (attributes: one entry without a time), at least one
 * @param processed completed once the root chain is done with all readings
 */
public record DeviceDataMsg(UUID tenantId, UUID deviceId, String msgType, List<TsEntry> entries,
                            CompletableFuture<Void> processed) implements DeviceAwareMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        processed.completeExceptionally(new MessageNotAcceptedException(reason));
    }
}
