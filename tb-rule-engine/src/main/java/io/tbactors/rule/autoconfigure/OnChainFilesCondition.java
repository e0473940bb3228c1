package io.tbactors.rule.autoconfigure;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code tb.rule-engine.chains} names at least one file. */
class OnChainFilesCondition implements Condition {

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return Binder.get(context.getEnvironment()).bind("tb.rule-engine.chains", Bindable.listOf(String.class))
                .map(list -> !list.isEmpty()).orElse(false);
    }
}
