package io.tbactors.rule;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;


/**
 * A message travelling through a rule chain. Immutable, its data too, at any depth (build it with frozen data, see
 * {@link TbMsgData#frozenValues}; {@link #withData} does): a node that changes it makes a copy, which keeps the same
 * id and tracker, so the copies routed to several nodes never see each other's changes, and an expression cannot
 * change it.
 *
 * @param id the message's id
 * @param type the message type, see {@link TbMsgType}
 * @param tenantId the tenant, or null in an application without tenants
 * @param originatorId the entity it came from (a device, in ThingsBoard's model)
 * @param ts the readings' time, epoch milliseconds
 * @param data key to value (Boolean, Long, Double, String, Map or List)
 * @param metadata string key-value pairs about the message (device name and type, time)
 * @param tracker counts the message's copies until it has gone through the chain
 */
public record TbMsg(UUID id, String type, UUID tenantId, UUID originatorId, long ts, Map<String, Object> data,
                    Map<String, String> metadata, TbMsgTracker tracker) {

    /**
     * A message with a fresh id, its data frozen, followed by a tracker that tells {@code callback} how it ended.
     *
     * @param type the message type, see {@link TbMsgType}
     * @param originatorId the entity it came from
     * @param data key to value
     * @param metadata string key-value pairs
     * @param callback told once how the message ended
     * @return the message, with no tenant and the current time
     */
    public static TbMsg of(String type, UUID originatorId, Map<String, Object> data, Map<String, String> metadata,
                           TbMsgCallback callback) {
        return new TbMsg(UUID.randomUUID(), type, null, originatorId, System.currentTimeMillis(), TbMsgData.frozenValues(data),
                Map.copyOf(metadata), new TbMsgTracker(RuleEngineListener.NONE, callback));
    }

    /**
     * @param data the new data
     * @return a copy with that data
     */
    public TbMsg withData(Map<String, Object> data) {
        return new TbMsg(id, type, tenantId, originatorId, ts, TbMsgData.frozenValues(data), metadata, tracker);
    }

    /**
     * @param key metadata key
     * @param value its value
     * @return a copy with that metadata entry added or replaced
     */
    public TbMsg withMetadata(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(metadata);
        copy.put(key, value);
        return new TbMsg(id, type, tenantId, originatorId, ts, data, Collections.unmodifiableMap(copy), tracker);
    }
}
