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

    /** The SQL types of the value columns {@code bool_v, long_v, dbl_v, str_v, json_v}, in that order. */
    private static final int[] COLUMN_TYPES = {Types.BOOLEAN, Types.BIGINT, Types.DOUBLE, Types.VARCHAR, Types.VARCHAR};

    /**
     * @param stored a value from {@link #toStored}
     * @return the index, among the five value columns, of the one that holds it
     */
    private static int columnOf(Object stored) {
        if (stored instanceof Boolean) {
            return 0;
        }
        if (stored instanceof Long) {
            return 1;
        }
        if (stored instanceof Double) {
            return 2;
        }
        return stored instanceof String ? 3 : 4;
    }

    /**
     * @param value a normalized value
     * @return five JDBC parameters for {@code bool_v, long_v, dbl_v, str_v, json_v}, exactly one not null
     */
    public SqlParameterValue[] toColumns(Object value) {
        Object stored = toStored(value);
        int column = columnOf(stored);
        Object columnValue = stored instanceof JsonText json ? json.json() : stored;
        SqlParameterValue[] columns = new SqlParameterValue[COLUMN_TYPES.length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new SqlParameterValue(COLUMN_TYPES[i], i == column ? columnValue : null);
        }
        return columns;
    }

    /**
     * Sets the five value columns {@code bool_v, long_v, dbl_v, str_v, json_v} of a statement straight from a stored
     * value: the one that holds it with its type's own setter, the others with a typed null. The batches' path, which
     * sets millions of them without Spring's per-value type dispatch.
     *
     * @param statement the statement
     * @param first the index of its {@code bool_v} parameter
     * @param stored a value from {@link #toStored}
     * @throws SQLException when the driver refuses a parameter
     */
    static void bindColumns(PreparedStatement statement, int first, Object stored) throws SQLException {
        int column = columnOf(stored);
        for (int i = 0; i < COLUMN_TYPES.length; i++) {
            if (i != column) {
                statement.setNull(first + i, COLUMN_TYPES[i]);
            }
        }
        switch (column) {
            case 0 -> statement.setBoolean(first, (Boolean) stored);
            case 1 -> statement.setLong(first + 1, (Long) stored);
            case 2 -> statement.setDouble(first + 2, (Double) stored);
            case 3 -> statement.setString(first + 3, (String) stored);
            default -> statement.setString(first + 4, ((JsonText) stored).json());
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
