package io.tbactors.sample.iot.ingestion;

import io.tbactors.sample.iot.actors.msg.TsEntry;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.storage.KvCodec;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.sample.iot.web.LogText;
import io.tbactors.sample.iot.web.RequestBodies;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the device API's bodies in ThingsBoard's shapes: telemetry as {@code {"k": v}}, {@code {"ts": ms,
 * "values": {...}}} or an array of those; attributes as {@code {"k": v}}. Values may be numbers, booleans,
 * strings, JSON objects or arrays (kept unmodifiable, so no rule node can change them). Anything else is a 400
 * whose message says what and where: non-finite numbers, times outside the accepted window, blank, over-long keys
 * or keys with control characters among them.
 */
@Component
public class DevicePayloadParser {

    /** Longest key accepted, the column's size. */
    public static final int MAX_KEY_LENGTH = 255;

    private final JsonMapper jsonMapper;
    private final SampleProperties.DeviceApi settings;
    private final TelemetryStreamReader streamReader;

    /**
     * @param jsonMapper parses the bodies
     * @param properties the window of accepted reading times
     */
    public DevicePayloadParser(JsonMapper jsonMapper, SampleProperties properties) {
        this.jsonMapper = jsonMapper;
        this.settings = properties.getDeviceApi();
        this.streamReader = new TelemetryStreamReader(jsonMapper, this::inTimeWindow);
    }

    /**
     * @param body the request body
     * @return one entry per posted time, in the posted order
     * @throws ApiException 400 for an empty, malformed or wrongly shaped body
     */
    public List<TsEntry> parseTelemetry(byte[] body) {
        // the common bodies are read as a stream of tokens; the rest (errors included) through the tree
        List<TsEntry> simple = streamReader.read(body);
        return simple != null ? simple : parseTelemetryTree(body);
    }

    /**
     * The tree path alone, which says what is wrong with a body; for tests that hold the stream path to it.
     *
     * @param body the request body
     * @return one entry per posted time, in the posted order
     */
    List<TsEntry> parseTelemetryTree(byte[] body) {
        JsonNode root = readTree(body);
        if (root.isArray()) {
            if (root.isEmpty()) {
                throw badRequest("Telemetry array is empty");
            }
            List<TsEntry> entries = new ArrayList<>(root.size());
            for (int i = 0; i < root.size(); i++) {
                entries.add(parseTsEntry(root.get(i), i));
            }
            return entries;
        }
        return List.of(parseTsEntry(root, Location.BODY));
    }

    /**
     * @param body the request body
     * @return key to normalized value, in the posted order
     * @throws ApiException 400 for an empty, malformed or wrongly shaped body
     */
    public Map<String, Object> parseAttributes(byte[] body) {
        return parseValues(readTree(body), Location.BODY);
    }

    /**
     * Where in the body a part is, for error messages only: the path text ({@code [3].values}) is made when an error
     * needs it, not for each of a body's thousands of readings.
     *
     * @param index the reading's index in a telemetry array, or -1 for a body that is one reading
     * @param values whether it is the {@code values} object of a reading with a time
     */
    private record Location(int index, boolean values) {

        static final Location BODY = new Location(-1, false);

        String path() {
            String entry = index < 0 ? "" : "[" + index + "]";
            return values ? join(entry, "values") : entry;
        }
    }

    private TsEntry parseTsEntry(JsonNode node, int index) {
        return parseTsEntry(node, new Location(index, false));
    }

    private TsEntry parseTsEntry(JsonNode node, Location location) {
        if (node.isObject() && node.has("ts") && node.has("values")) {
            JsonNode ts = node.get("ts");
            if (!ts.isIntegralNumber() || !ts.canConvertToLong() || ts.longValue() < 0) {
                throw badRequest(where(location.path(), "ts") + " must be a non-negative integer of epoch milliseconds, got " + ts);
            }
            checkTimeWindow(ts.longValue(), location);
            return new TsEntry(ts.longValue(), parseValues(node.get("values"), new Location(location.index(), true)));
        }
        return new TsEntry(null, parseValues(node, location));
    }

    private Map<String, Object> parseValues(JsonNode node, Location location) {
        if (!node.isObject()) {
            String path = location.path();
            throw badRequest((path.isEmpty() ? "Body" : path) + " must be a JSON object of key-value pairs, got "
                    + node.getNodeType().name().toLowerCase());
        }
        if (node.isEmpty()) {
            String path = location.path();
            throw badRequest((path.isEmpty() ? "Body" : path) + " has no key-value pairs");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
                throw badRequest(where(location.path(), LogText.escape(key.length() > 40 ? key.substring(0, 40) + "..." : key))
                        + ": keys must be 1 to " + MAX_KEY_LENGTH + " characters and not blank, got " + key.length());
            }
            int control = firstControlCharacter(key);
            if (control >= 0) {
                throw badRequest(where(location.path(), LogText.escape(key)) + ": keys must not contain control characters, found "
                        + String.format("U+%04X", (int) key.charAt(control)) + " at index " + control);
            }
            values.put(key, toValue(field.getValue(), location, key));
        }
        return Collections.unmodifiableMap(values);
    }

    private Object toValue(JsonNode value, Location location, String key) {
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.longValue();
        }
        if (value.isNumber()) {
            checkFinite(value, location, key);
            return value.doubleValue();
        }
        if (value.isString()) {
            String text = value.stringValue();
            int nul = text.indexOf('\u0000');
            if (nul >= 0) {
                // PostgreSQL's text columns cannot hold U+0000; refused on every database so the answer does not
                // depend on which one stores the reading
                throw badRequest(where(location.path(), key) + " must not contain the NUL character (U+0000), found at index " + nul
                        + "; other characters, control characters included, are allowed");
            }
            return text;
        }
        if (value.isObject() || value.isArray()) {
            checkNumbersInside(value, where(location.path(), key));
            return KvCodec.frozen(jsonMapper.treeToValue(value, Object.class));
        }
        throw badRequest(where(location.path(), key) + " must be a number, boolean, string or JSON object, got "
                + value.getNodeType().name().toLowerCase());
    }

    private static void checkNumbersInside(JsonNode value, String path) {
        if (value.isNumber()) {
            checkFinite(value, path);
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                checkNumbersInside(value.get(i), path + "[" + i + "]");
            }
        } else if (value.isObject()) {
            for (Map.Entry<String, JsonNode> field : value.properties()) {
                checkNumbersInside(field.getValue(), where(path, LogText.escape(field.getKey())));
            }
        }
    }

    private static void checkFinite(JsonNode number, String path) {
        if (!(number.isIntegralNumber() && number.canConvertToLong()) && !Double.isFinite(number.doubleValue())) {
            throw notFinite(path);
        }
    }

    private static void checkFinite(JsonNode number, Location location, String key) {
        if (!(number.isIntegralNumber() && number.canConvertToLong()) && !Double.isFinite(number.doubleValue())) {
            throw notFinite(where(location.path(), key));
        }
    }

    private static ApiException notFinite(String path) {
        return badRequest(path + " must be a finite number, at most " + Double.MAX_VALUE + " in magnitude");
    }

    private boolean inTimeWindow(long ts) {
        long now = System.currentTimeMillis();
        Duration maxAge = settings.getMaxTsAge();
        return ts <= now + settings.getMaxTsAhead().toMillis() && (maxAge == null || ts >= now - maxAge.toMillis());
    }

    private void checkTimeWindow(long ts, Location location) {
        long now = System.currentTimeMillis();
        long maxAhead = settings.getMaxTsAhead().toMillis();
        if (ts > now + maxAhead) {
            throw badRequest(where(location.path(), "ts") + " is " + ts + ", more than " + settings.getMaxTsAhead()
                    + " ahead of the server's clock (" + now + "); allowed: up to sample.device-api.max-ts-ahead ahead");
        }
        Duration maxAge = settings.getMaxTsAge();
        if (maxAge != null && ts < now - maxAge.toMillis()) {
            throw badRequest(where(location.path(), "ts") + " is " + ts + ", more than " + maxAge + " before the server's clock (" + now
                    + "); allowed: at most sample.device-api.max-ts-age old");
        }
    }

    private static int firstControlCharacter(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private JsonNode readTree(byte[] body) {
        if (body.length == 0 || new String(body, StandardCharsets.UTF_8).isBlank()) {
            throw badRequest("Request body is empty");
        }
        try {
            JsonNode root = jsonMapper.readTree(body);
            if (root == null || root.isMissingNode()) {
                throw badRequest("Request body is empty");
            }
            return root;
        } catch (JacksonException e) {
            throw badRequest(RequestBodies.malformedJson(e));
        }
    }

    private static String where(String path, String key) {
        return join(path, "'" + key + "'");
    }

    private static String join(String path, String child) {
        return path.isEmpty() ? child : path + "." + child;
    }

    private static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message);
    }
}
