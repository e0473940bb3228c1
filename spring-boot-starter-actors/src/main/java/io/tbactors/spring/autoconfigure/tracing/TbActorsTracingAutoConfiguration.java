package io.tbactors.spring.autoconfigure.tracing;

import io.micrometer.context.ContextSnapshotFactory;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.tracing.ContextSnapshotMessagePropagator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Carries the teller's context (trace, MDC, any thread local registered with Micrometer's context-propagation) to
 * the processing of each message, with {@code tb.actors.tracing.enabled=true}. Runs before the core
 * auto-configuration, whose settings pick the propagator up.
 */
@AutoConfiguration(before = TbActorsAutoConfiguration.class)
@ConditionalOnClass(ContextSnapshotFactory.class)
@ConditionalOnBooleanProperty(name = "tb.actors.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("tb.actors.tracing.enabled")
public final class TbActorsTracingAutoConfiguration {

    TbActorsTracingAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    TbMessageContextPropagator tbMessageContextPropagator() {
        return new ContextSnapshotMessagePropagator();
    }
}
