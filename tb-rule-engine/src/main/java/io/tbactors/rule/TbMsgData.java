package io.tbactors.rule;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The value types of a message's data: Boolean, Long, Double, String, and maps and lists of them. Nodes that
 * compute values pass them through {@link #normalize}; {@link TbMsg} keeps its data {@link #frozenValues frozen}.
 */
public final class TbMsgData {

    private TbMsgData() {
    }

    /**
     * @param value a value from JSON or from an expression
     * @return integers as Long, other numbers as Double, a character as String; anything else unchanged
     */
    public static Object normalize(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < Long.SIZE ? (Object) big.longValue() : (Object) big.doubleValue();
        }
        if (value instanceof Float || value instanceof BigDecimal) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof Character c) {
            return String.valueOf(c);
        }
        return value;
    }

    /**
     * Makes a value deeply unmodifiable, so that an expression calling {@code put} or {@code add} on a map or list
     * of a message fails instead of changing what other nodes and branches see.
     *
     * @param value a value
     * @return the value; maps and lists (at any depth) as unmodifiable copies, in their order
     */
    public static Object frozen(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(key, frozen(item)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(frozen(item)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    /**
     * @param values key to value
     * @return an unmodifiable copy in the same order, its values {@link #frozen}
     */
    public static Map<String, Object> frozenValues(Map<String, Object> values) {
        if (values.size() == 1) {
            // the common reading of one key: a map of one entry is 32 bytes, against about 200 for a copied hash map,
            // and a message lives until its chain is done with it (for a save, until its batch commits)
            Map.Entry<String, Object> only = values.entrySet().iterator().next();
            return Collections.singletonMap(only.getKey(), frozen(only.getValue()));
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        values.forEach((key, value) -> copy.put(key, frozen(value)));
        return Collections.unmodifiableMap(copy);
    }
}
