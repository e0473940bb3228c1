package io.tbactors.sample.iot.storage;

import java.util.UUID;

import org.springframework.jdbc.core.SqlParameterValue;

/**
 * One key-value row on its way to a table: a history reading, a latest value or an attribute.
 *
 * @param deviceId the device
 * @param ts the reading's time (for attributes, the update's time)
 * @param columns the typed value columns {@code bool_v, long_v, dbl_v, str_v, json_v} ({@link KvCodec#toColumns})
 */
public record KvRow(UUID deviceId, String key, long ts, SqlParameterValue[] columns) {

    /** @return the statement parameters: device, key, time, then the five value columns */
    Object[] params() {
        return new Object[] {deviceId, key, ts, columns[0], columns[1], columns[2], columns[3], columns[4]};
    }
}
