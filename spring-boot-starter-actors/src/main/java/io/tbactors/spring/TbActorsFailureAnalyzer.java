package io.tbactors.spring;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;

/**
 * Explains a start-up failure caused by a {@code tb.*} property of the starter or of a module built on it (such as
 * {@code tb.actors.cluster.*}) whose value cannot even be converted to the property's type (an unknown enum constant,
 * text where a number belongs), with where it was set.
 *
 * <p>Values that convert but break a rule fail the properties' own {@code Validator} (every properties class of the
 * project validates itself); this analyzer leaves those to Spring Boot's validation report, which lists every bad
 * property with its value, its origin and the reason, which says what is allowed.
 */
public class TbActorsFailureAnalyzer implements FailureAnalyzer, Ordered {

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException bind && !(bind.getCause() instanceof BindValidationException)
                    && bind.getName().toString().startsWith("tb.")) {
                ConfigurationProperty property = bind.getProperty();
                return analysis(bind.getName().toString(), property == null ? null : property.getValue(),
                        property == null ? null : property.getOrigin(), allowedFor(bind.getTarget().getType().resolve()), failure);
            }
        }
        return null;
    }

    private static FailureAnalysis analysis(String property, @Nullable Object value, @Nullable Origin origin, String allowed,
                                            Throwable failure) {
        String from = origin == null ? "" : " (from " + origin + ")";
        return new FailureAnalysis("Invalid value '" + value + "' for property '" + property + "'" + from + ".",
                "Set '" + property + "' to " + allowed + ".", failure);
    }

    static String allowedFor(@Nullable Class<?> type) {
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
        // ahead of Spring Boot's generic binding analyzer, which names the allowed constants but not in property form
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
