package io.tbactors.sample.iot.storage;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/**
 * One key-value row on its way to a table: a history reading, a latest value or an attribute.
 *
 * @param deviceId the device
 * @param key the key
 * @param ts the reading's time (for attributes, the update's time)
 * @param value the value as stored ({@link KvCodec#toStored}): a Boolean, Long, Double, String or JSON text
 */
public record KvRow(UUID deviceId, String key, long ts, Object value) {

    /**
     * Sets the statement's parameters: device, key, time, then the five value columns ({@link KvTableSql}).
     *
     * @param statement a statement of {@link KvTableSql}
     * @throws SQLException when the driver refuses a parameter
     */
    void bind(PreparedStatement statement) throws SQLException {
        statement.setObject(1, deviceId);
        statement.setString(2, key);
        statement.setLong(3, ts);
        KvCodec.bindColumns(statement, 4, value);
    }
}
