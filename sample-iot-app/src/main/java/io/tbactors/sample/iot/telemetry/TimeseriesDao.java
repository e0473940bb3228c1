package io.tbactors.sample.iot.telemetry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Time series history ({@code ts_kv}) and latest values ({@code ts_kv_latest}).
 *
 * <p>Writes are plain statements, not one transaction: a duplicate key inside a PostgreSQL transaction would abort
 * it, and each row is idempotent anyway (a reading at the same device, key and time replaces the older one).
 */
@Repository
public class TimeseriesDao {

    private static final String VALUE_COLUMNS = "bool_v, long_v, dbl_v, str_v, json_v";

    private final JdbcClient jdbc;
    private final KvCodec codec;

    /**
     * @param jdbc the database
     * @param codec maps values to columns
     */
    public TimeseriesDao(JdbcClient jdbc, KvCodec codec) {
        this.jdbc = jdbc;
        this.codec = codec;
    }

    /**
     * Saves readings to the history and moves each key's latest value forward when the reading is not older.
     *
     * @param deviceId the device
     * @param ts the readings' time
     * @param values key to normalized value
     */
    public void save(UUID deviceId, long ts, Map<String, Object> values) {
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            SqlParameterValue[] columns = codec.toColumns(entry.getValue());
            saveHistory(deviceId, entry.getKey(), ts, columns);
            saveLatest(deviceId, entry.getKey(), ts, columns);
        }
    }

    private void saveHistory(UUID deviceId, String key, long ts, SqlParameterValue[] columns) {
        try {
            jdbc.sql("INSERT INTO ts_kv (device_id, ts_key, ts, " + VALUE_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                    .params(deviceId, key, ts, columns[0], columns[1], columns[2], columns[3], columns[4])
                    .update();
        } catch (DuplicateKeyException sameTime) {
            jdbc.sql("UPDATE ts_kv SET bool_v = ?, long_v = ?, dbl_v = ?, str_v = ?, json_v = ? "
                            + "WHERE device_id = ? AND ts_key = ? AND ts = ?")
                    .params(columns[0], columns[1], columns[2], columns[3], columns[4], deviceId, key, ts)
                    .update();
        }
    }

    private void saveLatest(UUID deviceId, String key, long ts, SqlParameterValue[] columns) {
        Upserts.writeUnlessNewer(jdbc,
                "UPDATE ts_kv_latest SET ts = ?, bool_v = ?, long_v = ?, dbl_v = ?, str_v = ?, json_v = ? "
                        + "WHERE device_id = ? AND ts_key = ? AND ts <= ?",
                new Object[] {ts, columns[0], columns[1], columns[2], columns[3], columns[4], deviceId, key, ts},
                "INSERT INTO ts_kv_latest (device_id, ts_key, ts, " + VALUE_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                new Object[] {deviceId, key, ts, columns[0], columns[1], columns[2], columns[3], columns[4]});
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
