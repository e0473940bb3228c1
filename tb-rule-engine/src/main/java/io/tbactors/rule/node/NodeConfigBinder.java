package io.tbactors.sample.iot.rule.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * A node's configuration being read: typed getters that record an error with its path (such as
 * {@code nodes[1].configuration.severity}) instead of throwing, so that one pass reports every mistake.
 */
public final class NodeConfig {

    private final JsonNode configuration;
    private final String path;
    private final List<String> errors;

    /**
     * @param configuration the node's configuration object (may be null: treated as empty)
     * @param path where the configuration is, e.g. {@code nodes[1].configuration}
     * @param errors where errors are added
     */
    public NodeConfig(JsonNode configuration, String path, List<String> errors) {
        this.configuration = configuration;
        this.path = path;
        this.errors = errors;
    }

    /**
     * @param field the field
     * @return its text, or null after recording an error when it is missing, blank or not a string
     */
    public String requiredString(String field) {
        JsonNode value = configuration == null ? null : configuration.get(field);
        if (value == null || value.isNull()) {
            error(field, "is required");
            return null;
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            error(field, "must be a non-blank string");
            return null;
        }
        return value.stringValue();
    }

    /**
     * @param field the field
     * @return its text, or null when absent (an error is recorded when it is not a string)
     */
    public String optionalString(String field) {
        JsonNode value = configuration == null ? null : configuration.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            error(field, "must be a string");
            return null;
        }
        return value.stringValue();
    }

    /**
     * @param field the field
     * @return its entries in order; empty when absent (an error is recorded when it is not an object of strings)
     */
    public Map<String, String> optionalStringMap(String field) {
        Map<String, String> result = new LinkedHashMap<>();
        JsonNode value = configuration == null ? null : configuration.get(field);
        if (value == null || value.isNull()) {
            return result;
        }
        if (!value.isObject()) {
            error(field, "must be an object of string values");
            return result;
        }
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            if (entry.getKey().isBlank() || !entry.getValue().isString() || entry.getValue().stringValue().isBlank()) {
                error(field + "." + entry.getKey(), "must be a non-blank string under a non-blank key");
            } else {
                result.put(entry.getKey(), entry.getValue().stringValue());
            }
        }
        return result;
    }

    /**
     * @param field the field
     * @return its strings in order; empty when absent (an error is recorded when it is not an array of strings)
     */
    public List<String> optionalStringList(String field) {
        List<String> result = new ArrayList<>();
        JsonNode value = configuration == null ? null : configuration.get(field);
        if (value == null || value.isNull()) {
            return result;
        }
        if (!value.isArray()) {
            error(field, "must be an array of strings");
            return result;
        }
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            if (!item.isString() || item.stringValue().isBlank()) {
                error(field + "[" + i + "]", "must be a non-blank string");
            } else {
                result.add(item.stringValue());
            }
        }
        return result;
    }

    /**
     * @param field the field
     * @param type the enum
     * @param defaultValue the value when the field is absent
     * @param <E> the enum
     * @return the constant named by the field (case-insensitive), or null after recording an error
     */
    public <E extends Enum<E>> E optionalEnum(String field, Class<E> type, E defaultValue) {
        String text = optionalString(field);
        if (text == null) {
            return defaultValue;
        }
        try {
            return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            error(field, "'" + text + "' is not one of " + List.of(type.getEnumConstants()));
            return null;
        }
    }

    /**
     * Records an error at a field.
     *
     * @param field the field
     * @param message what is wrong with it
     */
    public void error(String field, String message) {
        errors.add(path + "." + field + ": " + message);
    }

    /** @return whether any error has been recorded, by this node or an earlier one */
    public boolean hasErrors() {
        return !errors.isEmpty();
    }
}
