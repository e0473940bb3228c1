package io.tbactors.sample.iot.telemetry;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Device attributes ({@code attribute_kv}): one current value per key. Like {@link TimeseriesDao}, plain statements.
 */
@Repository
public class AttributesDao {

    private final JdbcClient jdbc;
    private final KvCodec codec;

    /**
     * @param jdbc the database
     * @param codec maps values to columns
     */
    public AttributesDao(JdbcClient jdbc, KvCodec codec) {
        this.jdbc = jdbc;
        this.codec = codec;
    }

    /**
     * Sets attributes, unless a key was set by a newer update.
     *
     * @param deviceId the device
     * @param ts time of the update, epoch milliseconds
     * @param values key to normalized value
     */
    public void save(UUID deviceId, long ts, Map<String, Object> values) {
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            SqlParameterValue[] c = codec.toColumns(entry.getValue());
            Upserts.writeUnlessNewer(jdbc,
                    "UPDATE attribute_kv SET last_update_ts = ?, bool_v = ?, long_v = ?, dbl_v = ?, str_v = ?, json_v = ? "
                            + "WHERE device_id = ? AND attribute_key = ? AND last_update_ts <= ?",
                    new Object[] {ts, c[0], c[1], c[2], c[3], c[4], deviceId, entry.getKey(), ts},
                    "INSERT INTO attribute_kv (device_id, attribute_key, last_update_ts, bool_v, long_v, dbl_v, str_v, json_v) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    new Object[] {deviceId, entry.getKey(), ts, c[0], c[1], c[2], c[3], c[4]});
        }
    }

    /**
     * @param deviceId the device
     * @return key to value with its update time, keys sorted
     */
    public Map<String, TsValue> findAll(UUID deviceId) {
        Map<String, TsValue> result = new LinkedHashMap<>();
        jdbc.sql("SELECT attribute_key, last_update_ts, bool_v, long_v, dbl_v, str_v, json_v FROM attribute_kv "
                        + "WHERE device_id = ? ORDER BY attribute_key")
                .params(deviceId)
                .query(rs -> {
                    result.put(rs.getString("attribute_key"), new TsValue(rs.getLong("last_update_ts"), codec.fromColumns(rs)));
                });
        return result;
    }
}
