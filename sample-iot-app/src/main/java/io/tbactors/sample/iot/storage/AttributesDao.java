package io.tbactors.sample.iot.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Device attributes ({@code attribute_kv}): one current value per key. Like {@link TimeseriesDao}, writes are batched through a
 * write-behind queue.
 */
@Repository
public class AttributesDao {

    private final JdbcClient jdbc;
    private final KvCodec codec;
    private final KvWriteQueues queues;

    /**
     * @param jdbc the database, for reads
     * @param codec maps values to columns
     * @param queues where writes go
     */
    public AttributesDao(JdbcClient jdbc, KvCodec codec, KvWriteQueues queues) {
        this.jdbc = jdbc;
        this.codec = codec;
        this.queues = queues;
    }

    /**
     * Queues attributes, each set unless the key was set by a newer update.
     *
     * @param deviceId the device
     * @param ts time of the update, epoch milliseconds
     * @param values key to normalized value
     * @return completes when every row is committed; fails when one was not (its batch failed, or the queue refused it)
     */
    public CompletableFuture<Void> save(UUID deviceId, long ts, Map<String, Object> values) {
        List<CompletableFuture<Void>> rows = new ArrayList<>(values.size());
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            rows.add(queues.attributes().add(new KvRow(deviceId, entry.getKey(), ts, codec.toStored(entry.getValue()))));
        }
        return rows.size() == 1 ? rows.get(0) : CompletableFuture.allOf(rows.toArray(CompletableFuture[]::new));
    }

    /**
     * @param deviceId the device
     * @return key to value with its update time, keys sorted
     */
    public Map<String, TsValue> findAll(UUID deviceId) {
        return findAll(jdbc, codec, "attribute_kv", deviceId);
    }

    /** Reads a device's attributes from one of the attribute tables, which share their columns. */
    static Map<String, TsValue> findAll(JdbcClient jdbc, KvCodec codec, String table, UUID deviceId) {
        Map<String, TsValue> result = new LinkedHashMap<>();
        jdbc.sql("SELECT attribute_key, last_update_ts, bool_v, long_v, dbl_v, str_v, json_v FROM " + table
                        + " WHERE device_id = ? ORDER BY attribute_key")
                .params(deviceId)
                .query(rs -> {
                    result.put(rs.getString("attribute_key"), new TsValue(rs.getLong("last_update_ts"), codec.fromColumns(rs)));
                });
        return result;
    }
}
