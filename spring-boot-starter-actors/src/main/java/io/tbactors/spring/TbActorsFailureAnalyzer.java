package io.tbactors.spring;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;

/**
 * Explains a start-up failure caused by a {@code tb.actors.*} property: which property, the value it had and what
 * it may be. Covers values the actor system rejects ({@link InvalidTbActorsPropertyException}) and values that
 * cannot even be converted to the property's type (an unknown dispatcher type, text where a number belongs).
 */
public class TbActorsFailureAnalyzer implements FailureAnalyzer, Ordered {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidTbActorsPropertyException invalid) {
                return analysis(invalid.getProperty(), invalid.getValue(), invalid.getAllowed(), failure);
            }
            if (cause instanceof BindException bind && bind.getName().toString().startsWith(TbActorsProperties.PREFIX + ".")) {
                ConfigurationProperty property = bind.getProperty();
                Object value = property == null ? null : property.getValue();
                return analysis(bind.getName().toString(), value, allowedFor(bind.getTarget().getType().resolve()), failure);
            }
        }
        return null;
    }

    private static FailureAnalysis analysis(String property, Object value, String allowed, Throwable failure) {
        return new FailureAnalysis("Invalid value '" + value + "' for property '" + property + "'.",
                "Set '" + property + "' to " + allowed + ".", failure);
    }

    static String allowedFor(Class<?> type) {
        if (type == null) {
            return "a value of the documented type";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants())
                    .map(constant -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .collect(Collectors.joining(", "));
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == Duration.class) {
            return "a duration, such as 10s or 500ms";
        }
        return "a value of type " + type.getSimpleName();
    }

    @Override
    public int getOrder() {
        // ahead of Spring Boot's generic binding analyzer, which does not know the allowed values
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
