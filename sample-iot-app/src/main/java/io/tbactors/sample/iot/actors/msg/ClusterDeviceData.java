package io.tbactors.sample.iot.actors.msg;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbOwnershipEpoch;
import io.tbactors.rule.MessageNotAcceptedException;
import io.tbactors.rule.RuleChainFailureException;
import io.tbactors.sample.iot.storage.KvCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * What a device posted, as it crosses the wire to the node that owns the device (the {@code cluster} profile):
 * {@link DeviceDataMsg} without its reply future.
 *
 * @param tenantId the tenant
 * @param deviceId the device
 * @param msgType {@code POST_TELEMETRY_REQUEST} or {@code POST_ATTRIBUTES_REQUEST}
 * @param entries the readings
 */
public record ClusterDeviceData(UUID tenantId, UUID deviceId, String msgType, List<TsEntry> entries) implements TbActorMsg {

    /** Name of this type in the records, as registered under {@code tb.actors.cluster.message-types}. */
    public static final String TYPE = "device-data";

    /**
     * @param msg a device message posted on this node
     * @return the message to send to the device's owner
     */
    public static ClusterDeviceData of(DeviceDataMsg msg) {
        return new ClusterDeviceData(msg.tenantId(), msg.deviceId(), msg.msgType(), msg.entries());
    }

    /**
     * Turns an envelope that reached the owner back into the message its actors handle; the envelope completes
     * when the root rule chain is done with every reading, as an HTTP request would have been answered. When the
     * device's partition moved while the chain ran (its {@linkplain TbEntityMsg#getOwnershipEpoch() ownership epoch} is
     * no longer current), the completion is withheld: the record is left uncommitted, and unanswered, for the new owner,
     * which stores it again (the saves are keyed by device, key and time, so a second save of a reading changes nothing).
     *
     * @return the device message, or the payload itself (the envelope failed) when it is not device data
     */
    public static TbActorMsg unwrap(TbEntityMsg envelope) {
        if (!(envelope.getPayload() instanceof ClusterDeviceData data)) {
            envelope.onFailure(new IllegalArgumentException("Not device data: " + envelope.getPayload().getClass().getName()));
            return envelope.getPayload();
        }
        CompletableFuture<Void> processed = new CompletableFuture<>();
        TbOwnershipEpoch epoch = envelope.getOwnershipEpoch();
        processed.whenComplete((ok, failure) -> {
            if (!epoch.isCurrent()) {
                envelope.onTbActorStopped(TbActorStopReason.STOPPED);
            } else if (failure == null) {
                envelope.onProcessed();
            } else if (failure instanceof RuleChainFailureException chainFailed) {
                // processed, and failed: a dead letter, not a record to deliver again
                envelope.onFailure(chainFailed);
            } else {
                envelope.onTbActorStopped(failure instanceof MessageNotAcceptedException notAccepted
                        ? notAccepted.getReason() : TbActorStopReason.STOPPED);
            }
        });
        return new DeviceDataMsg(data.tenantId(), data.deviceId(), data.msgType(), normalized(data.entries()), processed);
    }

    private static List<TsEntry> normalized(List<TsEntry> entries) {
        // JSON brings small integers back as Integer: store them as the device API would have
        return entries.stream().map(entry -> {
            Map<String, Object> values = new LinkedHashMap<>();
            entry.values().forEach((key, value) -> values.put(key, KvCodec.normalize(value)));
            return new TsEntry(entry.ts(), values);
        }).toList();
    }
}
