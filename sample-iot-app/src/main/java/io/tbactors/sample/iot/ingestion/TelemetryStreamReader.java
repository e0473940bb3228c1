package io.tbactors.sample.iot.ingestion;

import io.tbactors.sample.iot.actors.msg.TsEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the telemetry bodies devices send most, straight from the JSON tokens into readings, without building a
 * tree first: a reading (or an array of them) of numbers, booleans and strings, with or without
 * {@code {"ts": ..., "values": {...}}}. It accepts only what {@link DevicePayloadParser}'s tree path would accept,
 * with the same result; anything else (an error, a nested object or array, a duplicate key, a {@code null}, a
 * number that is not a long or a finite double, a time outside the window, ...) makes it answer null, and the
 * tree path reads the body again and says what is wrong in its own words. So the fast path can never accept a body
 * the API refuses, nor change a message a client sees.
 */
final class TelemetryStreamReader {

    /** The reader cannot take the body as is: the tree path decides. */
    private static final class NotSimple extends Exception {

        private static final long serialVersionUID = 1L;

        private static final NotSimple INSTANCE = new NotSimple();

        private NotSimple() {
            super("not a simple telemetry body", null, false, false);
        }
    }

    /** Tells whether a reading's own time is accepted (the window of {@code sample.device-api.max-ts-*}). */
    @FunctionalInterface
    interface TimeWindow {

        /**
         * @param ts a reading's time, epoch milliseconds
         * @return whether it is accepted
         */
        boolean accepts(long ts);
    }

    private final JsonMapper jsonMapper;
    private final TimeWindow window;

    TelemetryStreamReader(JsonMapper jsonMapper, TimeWindow window) {
        this.jsonMapper = jsonMapper;
        this.window = window;
    }

    /**
     * @param body a telemetry body
     * @return its readings, in order; null when the tree path must read it
     */
    List<TsEntry> read(byte[] body) {
        try (JsonParser parser = jsonMapper.createParser(body)) {
            JsonToken first = parser.nextToken();
            List<TsEntry> entries;
            if (first == JsonToken.START_ARRAY) {
                entries = new ArrayList<>();
                for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                    require(token != null);
                    entries.add(entry(parser, token));
                }
                if (entries.isEmpty()) {
                    return null;
                }
            } else {
                entries = List.of(entry(parser, first));
            }
            return parser.nextToken() == null ? entries : null;
        } catch (NotSimple | JacksonException e) {
            return null;
        }
    }

    private TsEntry entry(JsonParser parser, JsonToken token) throws NotSimple {
        require(token == JsonToken.START_OBJECT);
        Scalars plain = new Scalars();
        Long ts = null;
        Scalars values = null;
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
            require(next == JsonToken.PROPERTY_NAME);
            String key = parser.currentName();
            JsonToken value = parser.nextToken();
            if ("ts".equals(key)) {
                // a reading's own time: a non-negative long, once
                require(ts == null && value == JsonToken.VALUE_NUMBER_INT && isLong(parser) && parser.getLongValue() >= 0);
                ts = parser.getLongValue();
            } else if ("values".equals(key)) {
                require(values == null && value == JsonToken.START_OBJECT);
                values = scalars(parser);
            } else {
                plain.put(key, scalar(parser, value));
            }
        }
        if (ts == null && values == null) {
            require(!plain.isEmpty());
            return new TsEntry(null, plain.toMap());
        }
        // "ts" without "values" (or the reverse) is a plain key there; beside both, other keys are ignored there
        require(ts != null && values != null && plain.isEmpty() && !values.isEmpty() && window.accepts(ts));
        return new TsEntry(ts, values.toMap());
    }

    private static Scalars scalars(JsonParser parser) throws NotSimple {
        Scalars into = new Scalars();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
            require(next == JsonToken.PROPERTY_NAME);
            String key = parser.currentName();
            into.put(key, scalar(parser, parser.nextToken()));
        }
        return into;
    }

    /**
     * A reading's values in the order they came, made into an unmodifiable map at the end. Most readings carry one
     * value, so the first is held in two fields and becomes a one-entry map; a {@code LinkedHashMap} is made only for
     * a second (a body of 8,000 one-value readings made 8,000 of them, with their tables: a fifth of the bytes the
     * whole application allocated while taking such bodies).
     */
    private static final class Scalars {

        private String firstKey;
        private Object firstValue;
        private Map<String, Object> more;

        void put(String key, Object value) throws NotSimple {
            require(isPlainKey(key));
            if (firstKey == null) {
                firstKey = key;
                firstValue = value;
                return;
            }
            if (more == null) {
                more = new LinkedHashMap<>();
                more.put(firstKey, firstValue);
            }
            require(more.put(key, value) == null);
        }

        boolean isEmpty() {
            return firstKey == null;
        }

        Map<String, Object> toMap() {
            return more != null ? Collections.unmodifiableMap(more) : Map.of(firstKey, firstValue);
        }
    }

    private static Object scalar(JsonParser parser, JsonToken value) throws NotSimple {
        require(value != null);
        switch (value) {
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NUMBER_INT:
                require(isLong(parser));
                return parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                double number = parser.getDoubleValue();
                require(Double.isFinite(number));
                return number;
            case VALUE_STRING:
                String text = parser.getString();
                require(text.indexOf('\u0000') < 0);
                return text;
            default:
                // null, objects and arrays: the tree path's rules (and messages) apply
                throw NotSimple.INSTANCE;
        }
    }

    private static boolean isLong(JsonParser parser) {
        JsonParser.NumberType type = parser.getNumberType();
        return type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG;
    }

    /** What the tree path accepts as a key without a word: not blank, not too long, no control character. */
    private static boolean isPlainKey(String key) {
        if (key.isEmpty() || key.length() > DevicePayloadParser.MAX_KEY_LENGTH || key.isBlank()) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static void require(boolean condition) throws NotSimple {
        if (!condition) {
            throw NotSimple.INSTANCE;
        }
    }
}
