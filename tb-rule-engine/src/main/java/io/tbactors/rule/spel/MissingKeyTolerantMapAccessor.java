package io.tbactors.rule.spel;

import java.util.Map;

import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.TypedValue;

/**
 * Reads map entries as properties ({@code data.temperature}), giving null for a missing key, so that a condition
 * such as {@code data.temperature > 30} is simply false for a message without a temperature.
 */
final class MissingKeyTolerantMapAccessor implements PropertyAccessor {

    @Override
    public Class<?>[] getSpecificTargetClasses() {
        return new Class<?>[] {Map.class};
    }

    @Override
    public boolean canRead(EvaluationContext context, Object target, String name) {
        return target instanceof Map<?, ?>;
    }

    @Override
    public TypedValue read(EvaluationContext context, Object target, String name) throws AccessException {
        if (target instanceof Map<?, ?> map) {
            Object value = map.get(name);
            return value == null ? TypedValue.NULL : new TypedValue(value);
        }
        throw new AccessException("Not a map: " + target);
    }

    @Override
    public boolean canWrite(EvaluationContext context, Object target, String name) {
        return false;
    }

    @Override
    public void write(EvaluationContext context, Object target, String name, Object newValue) throws AccessException {
        throw new AccessException("Expressions cannot change the message; use the transform node's 'set'");
    }
}
