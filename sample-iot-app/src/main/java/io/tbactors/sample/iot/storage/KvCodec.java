package io.tbactors.sample.iot.storage;

import io.tbactors.rule.TbMsgData;
import java.sql.PreparedStatement;
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
     * A value as it is stored: one of the four scalar types, or the JSON text of a map or a list.
     *
     * @param value a value from JSON or from an expression
     * @return a Boolean, Long, Double or String, or a {@link JsonText}; anything else as its string
     */
    public Object toStored(Object value) {
        Object v = normalize(value);
        if (v instanceof Boolean || v instanceof Long || v instanceof Double || v instanceof String) {
            return v;
        }
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            return new JsonText(jsonMapper.writeValueAsString(v));
        }
        return String.valueOf(v);
    }

    /**
     * The JSON text of a map or a list, stored in {@code json_v}.
     *
     * @param json the text
     */
    public record JsonText(String json) {
    }

    /**
     * @param value a normalized value
     * @return five JDBC parameters for {@code bool_v, long_v, dbl_v, str_v, json_v}, exactly one not null
     */
    public SqlParameterValue[] toColumns(Object value) {
        Object stored = toStored(value);
        return new SqlParameterValue[] {
            new SqlParameterValue(Types.BOOLEAN, stored instanceof Boolean ? stored : null),
            new SqlParameterValue(Types.BIGINT, stored instanceof Long ? stored : null),
            new SqlParameterValue(Types.DOUBLE, stored instanceof Double ? stored : null),
            new SqlParameterValue(Types.VARCHAR, stored instanceof String ? stored : null),
            new SqlParameterValue(Types.VARCHAR, stored instanceof JsonText json ? json.json() : null),
        };
    }

    /**
     * Sets the five typed columns {@code bool_v, long_v, dbl_v, str_v, json_v} of a statement straight from a stored
     * value, each with the setter of its type: the batches' path, which sets millions of them.
     *
     * @param statement the statement
     * @param first the index of its {@code bool_v} parameter
     * @param stored a value from {@link #toStored}
     * @throws SQLException when the driver refuses a parameter
     */
    static void bindColumns(PreparedStatement statement, int first, Object stored) throws SQLException {
        if (stored instanceof Boolean bool) {
            statement.setBoolean(first, bool);
        } else {
            statement.setNull(first, Types.BOOLEAN);
        }
        if (stored instanceof Long lng) {
            statement.setLong(first + 1, lng);
        } else {
            statement.setNull(first + 1, Types.BIGINT);
        }
        if (stored instanceof Double dbl) {
            statement.setDouble(first + 2, dbl);
        } else {
            statement.setNull(first + 2, Types.DOUBLE);
        }
        if (stored instanceof String str) {
            statement.setString(first + 3, str);
        } else {
            statement.setNull(first + 3, Types.VARCHAR);
        }
        if (stored instanceof JsonText json) {
            statement.setString(first + 4, json.json());
        } else {
            statement.setNull(first + 4, Types.VARCHAR);
        }
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
