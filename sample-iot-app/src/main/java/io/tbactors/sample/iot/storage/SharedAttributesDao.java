package io.tbactors.sample.iot.storage;

import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * A device's shared attributes (ThingsBoard's {@code SHARED_SCOPE}): written by the management API, one statement per
 * key (update, then insert when there was none), read whole.
 */
@Repository
public class SharedAttributesDao {

    private final JdbcClient jdbc;
    private final KvCodec codec;

    /**
     * @param jdbc the database
     * @param codec turns values into the typed columns and back
     */
    public SharedAttributesDao(JdbcClient jdbc, KvCodec codec) {
        this.jdbc = jdbc;
        this.codec = codec;
    }

    /**
     * @param deviceId the device
     * @param ts the update time
     * @param values key to value (as {@link KvCodec#normalize} accepts)
     */
    @Transactional
    public void save(UUID deviceId, long ts, Map<String, Object> values) {
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            SqlParameterValue[] columns = codec.toColumns(entry.getValue());
            int updated = jdbc.sql("UPDATE shared_attribute_kv SET last_update_ts = ?, bool_v = ?, long_v = ?, dbl_v = ?, "
                            + "str_v = ?, json_v = ? WHERE device_id = ? AND attribute_key = ?")
                    .params(ts, columns[0], columns[1], columns[2], columns[3], columns[4], deviceId, entry.getKey())
                    .update();
            if (updated == 0) {
                jdbc.sql("INSERT INTO shared_attribute_kv (device_id, attribute_key, last_update_ts, bool_v, long_v, dbl_v, "
                                + "str_v, json_v) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                        .params(deviceId, entry.getKey(), ts, columns[0], columns[1], columns[2], columns[3], columns[4])
                        .update();
            }
        }
    }

    /**
     * @param deviceId the device
     * @return key to value with its update time, keys sorted
     */
    public Map<String, TsValue> findAll(UUID deviceId) {
        return AttributesDao.findAll(jdbc, codec, "shared_attribute_kv", deviceId);
    }
}
