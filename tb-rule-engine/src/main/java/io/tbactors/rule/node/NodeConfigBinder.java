package io.tbactors.rule.node;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.tbactors.rule.spel.MsgExpression;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Binds a node's {@code configuration} object to its type's configuration class, collecting every error with its
 * location instead of stopping at the first, so one validation reports every mistake of a chain.
 *
 * <p>A record is bound component by component: a component annotated {@code @JsonProperty(required = true)} must
 * be there (a required string must not be blank); a field the record does not have is an error naming the fields
 * it has; strings, booleans, numbers, enums (by name, any case), {@link MsgExpression} (parsed and sandbox-checked)
 * and {@code Map<String, V>} or {@code List<V>} of those are converted here, anything else by Jackson. The record's
 * constructor may then apply defaults or refuse a value with an {@link IllegalArgumentException}. A class that is
 * not a record is bound by Jackson as a whole.
 */
public final class NodeConfigBinder {

    private final JsonMapper jsonMapper;

    /** @param jsonMapper binds what this class does not convert itself */
    public NodeConfigBinder(JsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
    }

    /**
     * @param json the node's configuration object (null reads as empty)
     * @param type the configuration class
     * @param path where the configuration is, e.g. {@code nodes[1].configuration}
     * @param errors where errors are added
     * @param <C> the configuration type
     * @return the bound configuration; null for {@code Void} or after recording errors
     */
    public <C> C bind(JsonNode json, Class<C> type, String path, List<String> errors) {
        if (type == Void.class) {
            return null;
        }
        int before = errors.size();
        if (!type.isRecord()) {
            try {
                return jsonMapper.treeToValue(json == null ? jsonMapper.createObjectNode() : json, type);
            } catch (JacksonException e) {
                errors.add(path + ": " + e.getOriginalMessage());
                return null;
            }
        }
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Set<String> known = new TreeSet<>();
        for (int i = 0; i < components.length; i++) {
            RecordComponent component = components[i];
            known.add(component.getName());
            JsonNode value = json == null ? null : json.get(component.getName());
            String fieldPath = path + "." + component.getName();
            if (value == null || value.isNull()) {
                if (isRequired(component)) {
                    errors.add(fieldPath + ": is required");
                }
                values[i] = defaultOf(component.getType());
            } else {
                values[i] = convert(value, component.getGenericType(), fieldPath, errors, isRequired(component));
            }
        }
        if (json != null) {
            for (Map.Entry<String, JsonNode> entry : json.properties()) {
                if (!known.contains(entry.getKey())) {
                    errors.add(path + "." + entry.getKey() + ": unknown field; the fields are " + known);
                }
            }
        }
        if (errors.size() != before) {
            return null;
        }
        return construct(type, components, values, path, errors);
    }

    private static boolean isRequired(RecordComponent component) {
        JsonProperty property = component.getAnnotation(JsonProperty.class);
        if (property == null && component.getAccessor() != null) {
            property = component.getAccessor().getAnnotation(JsonProperty.class);
        }
        return property != null && property.required();
    }

    private Object convert(JsonNode value, Type type, String path, List<String> errors, boolean required) {
        Class<?> raw = rawClass(type);
        if (raw == String.class) {
            if (!value.isString() || (required && value.stringValue().isBlank())) {
                errors.add(path + ": must be a " + (required ? "non-blank " : "") + "string");
                return null;
            }
            return value.stringValue();
        }
        if (raw == MsgExpression.class) {
            if (!value.isString() || value.stringValue().isBlank()) {
                errors.add(path + ": must be a non-blank string holding a SpEL expression");
                return null;
            }
            try {
                return MsgExpression.parse(value.stringValue());
            } catch (IllegalArgumentException e) {
                errors.add(path + ": " + e.getMessage());
                return null;
            }
        }
        if (raw.isEnum()) {
            return enumValue(value, raw, path, errors);
        }
        if (raw == Map.class && type instanceof ParameterizedType map) {
            if (!value.isObject()) {
                errors.add(path + ": must be an object");
                return null;
            }
            Map<String, Object> result = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : value.properties()) {
                result.put(entry.getKey(), convert(entry.getValue(), map.getActualTypeArguments()[1], path + "." + entry.getKey(),
                        errors, true));
            }
            return result;
        }
        if (raw == List.class && type instanceof ParameterizedType list) {
            if (!value.isArray()) {
                errors.add(path + ": must be an array");
                return null;
            }
            List<Object> result = new ArrayList<>(value.size());
            for (int i = 0; i < value.size(); i++) {
                result.add(convert(value.get(i), list.getActualTypeArguments()[0], path + "[" + i + "]", errors, true));
            }
            return result;
        }
        try {
            return jsonMapper.treeToValue(value, jsonMapper.constructType(type));
        } catch (JacksonException e) {
            errors.add(path + ": must be a " + raw.getSimpleName() + " (" + e.getOriginalMessage() + ")");
            return null;
        }
    }

    private static Object enumValue(JsonNode value, Class<?> type, String path, List<String> errors) {
        Object[] constants = type.getEnumConstants();
        if (value.isString()) {
            String name = value.stringValue().trim().toUpperCase(Locale.ROOT);
            for (Object constant : constants) {
                if (((Enum<?>) constant).name().equals(name)) {
                    return constant;
                }
            }
        }
        errors.add(path + ": '" + (value.isString() ? value.stringValue() : value.toString()) + "' is not one of "
                + Arrays.toString(constants));
        return null;
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        return Object.class;
    }

    private static Object defaultOf(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type == float.class) {
            return 0.0f;
        }
        return type == int.class ? 0 : type == short.class ? (short) 0 : (byte) 0;
    }

    private static <C> C construct(Class<C> type, RecordComponent[] components, Object[] values, String path, List<String> errors) {
        try {
            Constructor<C> constructor = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            constructor.setAccessible(true);
            return constructor.newInstance(values);
        } catch (InvocationTargetException e) {
            errors.add(path + ": " + e.getCause().getMessage());
            return null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot create " + type.getName() + " (is it a public record?)", e);
        }
    }
}
