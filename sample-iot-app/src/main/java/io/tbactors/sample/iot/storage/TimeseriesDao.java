package io.tbactors.sample.iot.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Time series history ({@code ts_kv}) and latest values ({@code ts_kv_latest}).
 *
 * <p>Writes go through the write-behind queues ({@link KvWriteQueues}) and are batched, a reading's history row and
 * latest value in the same transaction; each row is idempotent (a reading at the same device, key and time replaces
 * the older one).
 */
@Repository
public class TimeseriesDao {

    private static final String VALUE_COLUMNS = "bool_v, long_v, dbl_v, str_v, json_v";

    private final JdbcClient jdbc;
    private final KvCodec codec;
    private final KvWriteQueues queues;

    /**
     * @param jdbc the database, for reads
     * @param codec maps values to columns
     * @param queues where writes go
     */
    public TimeseriesDao(JdbcClient jdbc, KvCodec codec, KvWriteQueues queues) {
        this.jdbc = jdbc;
        this.codec = codec;
        this.queues = queues;
    }

    /**
     * Queues readings for the history and each key's latest value (moved forward only when the reading is not
     * older), both written by the same batch.
     *
     * @param deviceId the device
     * @param ts the readings' time
     * @param values key to normalized value
     * @return completes when every row is committed; fails when one was not (its batch failed, or a queue refused it)
     */
    public CompletableFuture<Void> save(UUID deviceId, long ts, Map<String, Object> values) {
        WriteBehindQueue<KvRow> queue = queues.history(deviceId);
        List<CompletableFuture<Void>> rows = new ArrayList<>(values.size());
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            rows.add(queue.add(new KvRow(deviceId, entry.getKey(), ts, codec.toStored(entry.getValue()))));
        }
        if (rows.size() == 1) {
            return rows.get(0);
        }
        return CompletableFuture.allOf(rows.toArray(CompletableFuture[]::new));
    }

    /**
     * @param deviceId the device
     * @param keys the keys to read, or null or empty for all
     * @return key to latest value, keys sorted
     */
    public Map<String, TsValue> findLatest(UUID deviceId, Collection<String> keys) {
        boolean all = keys == null || keys.isEmpty();
        String sql = "SELECT ts_key, ts, " + VALUE_COLUMNS + " FROM ts_kv_latest WHERE device_id = :deviceId"
                + (all ? "" : " AND ts_key IN (:keys)") + " ORDER BY ts_key";
        JdbcClient.StatementSpec spec = jdbc.sql(sql).param("deviceId", deviceId);
        if (!all) {
            spec = spec.param("keys", keys);
        }
        Map<String, TsValue> result = new LinkedHashMap<>();
        spec.query(rs -> {
            result.put(rs.getString("ts_key"), new TsValue(rs.getLong("ts"), codec.fromColumns(rs)));
        });
        return result;
    }

    /**
     * @param deviceId the device
     * @param keys the keys to read, or null or empty for every key that has a latest value
     * @param startTs first time included, epoch milliseconds
     * @param endTs last time included, epoch milliseconds
     * @param limit most values per key, the oldest in the range first
     * @return key to values in ascending time; keys without values in the range are left out
     */
    public Map<String, List<TsValue>> findHistory(UUID deviceId, Collection<String> keys, long startTs, long endTs, int limit) {
        Collection<String> wanted = keys == null || keys.isEmpty() ? findLatest(deviceId, null).keySet() : keys;
        Map<String, List<TsValue>> result = new LinkedHashMap<>();
        for (String key : wanted) {
            List<TsValue> values = new ArrayList<>();
            jdbc.sql("SELECT ts, " + VALUE_COLUMNS + " FROM ts_kv WHERE device_id = ? AND ts_key = ? AND ts >= ? AND ts <= ? "
                            + "ORDER BY ts LIMIT ?")
                    .params(deviceId, key, startTs, endTs, limit)
                    .query(rs -> {
                        values.add(new TsValue(rs.getLong("ts"), codec.fromColumns(rs)));
                    });
            if (!values.isEmpty()) {
                result.put(key, values);
            }
        }
        return result;
    }
}
