package io.tbactors.sample.iot.storage;

import io.tbactors.rule.TbMsgData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps a value to the typed columns {@code bool_v, long_v, dbl_v, str_v, json_v} and back, like ThingsBoard's
 * key-value tables: the type survives the round trip, so {@code 21} stays an integer and {@code "21"} a string.
 */
@Component
public class KvCodec {

    private final JsonMapper jsonMapper;

    /** @param jsonMapper writes and reads JSON values */
    public KvCodec(JsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
    }

    /**
     * Brings a value to one of the stored Java types: integral numbers to Long, other numbers to Double.
     *
     * @param value a value from JSON or from an expression
     * @return the normalized value; Maps, Lists, Booleans and Strings unchanged (the rule engine's rule, {@link TbMsgData})
     */
    public static Object normalize(Object value) {
        return TbMsgData.normalize(value);
    }

    /**
     * @param value a value from JSON or from an expression
     * @return the value; maps and lists (at any depth) as unmodifiable copies, in their order ({@link TbMsgData#frozen})
     */
    public static Object frozen(Object value) {
        return TbMsgData.frozen(value);
    }

    /**
     * @param values key to value
     * @return an unmodifiable copy in the same order, its values frozen ({@link TbMsgData#frozenValues})
     */
    public static Map<String, Object> frozenValues(Map<String, Object> values) {
        return TbMsgData.frozenValues(values);
    }

    /**
     * @param value a normalized value
     * @return five JDBC parameters for {@code bool_v, long_v, dbl_v, str_v, json_v}, exactly one not null
     */
    public SqlParameterValue[] toColumns(Object value) {
        Object v = normalize(value);
        Boolean bool = v instanceof Boolean b ? b : null;
        Long lng = v instanceof Long l ? l : null;
        Double dbl = v instanceof Double d ? d : null;
        String str = v instanceof String s ? s : null;
        String json = v instanceof Map<?, ?> || v instanceof List<?> ? jsonMapper.writeValueAsString(v) : null;
        if (bool == null && lng == null && dbl == null && str == null && json == null) {
            str = String.valueOf(v);
        }
        return new SqlParameterValue[] {
            new SqlParameterValue(Types.BOOLEAN, bool),
            new SqlParameterValue(Types.BIGINT, lng),
            new SqlParameterValue(Types.DOUBLE, dbl),
            new SqlParameterValue(Types.VARCHAR, str),
            new SqlParameterValue(Types.VARCHAR, json),
        };
    }

    /**
     * @param rs a row with the five typed columns
     * @return the value from whichever column is set
     * @throws SQLException when reading fails
     */
    public Object fromColumns(ResultSet rs) throws SQLException {
        boolean bool = rs.getBoolean("bool_v");
        if (!rs.wasNull()) {
            return bool;
        }
        long lng = rs.getLong("long_v");
        if (!rs.wasNull()) {
            return lng;
        }
        double dbl = rs.getDouble("dbl_v");
        if (!rs.wasNull()) {
            return dbl;
        }
        String str = rs.getString("str_v");
        if (str != null) {
            return str;
        }
        String json = rs.getString("json_v");
        return json == null ? null : jsonMapper.readValue(json, Object.class);
    }
}
