package io.tbactors.sample.iot.rule;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import io.tbactors.sample.iot.telemetry.KvCodec;

/**
 * A message travelling through a rule chain. Immutable, its data too, at any depth (the device actor and
 * {@link #withData} make it so): a node that changes it makes a copy, which keeps the same id and tracker, so the
 * copies routed to several nodes never see each other's changes, and an expression cannot change it.
 *
 * @param id the message's id
 * @param type the message type, see {@link TbMsgType}
 * @param tenantId the tenant
 * @param originatorId the device it came from
 * @param ts the readings' time, epoch milliseconds
 * @param data key to value (Boolean, Long, Double, String, Map or List)
 * @param metadata string key-value pairs about the message (device name and type, time)
 * @param tracker counts the message's copies until it has gone through the chain
 */
public record TbMsg(UUID id, String type, UUID tenantId, UUID originatorId, long ts, Map<String, Object> data,
                    Map<String, String> metadata, TbMsgTracker tracker) {

    /**
     * @param data the new data
     * @return a copy with that data
     */
    public TbMsg withData(Map<String, Object> data) {
        return new TbMsg(id, type, tenantId, originatorId, ts, KvCodec.frozenValues(data), metadata, tracker);
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
