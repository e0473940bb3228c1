package io.tbactors.spring.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.autoconfigure.TbActorsProperties;
import io.tbactors.spring.metrics.TbActorsMeterBinder;
import io.tbactors.spring.metrics.TbActorsMetricsListener;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters of the actor system, when the application has a {@link MeterRegistry}: the runtime's events
 * become per-dispatcher and per-actor-type meters, and a binder reads dispatcher, backlog and shutdown figures.
 * Ordered after Spring Boot's registry auto-configuration, by name since that module is optional.
 */
@AutoConfiguration(after = TbActorsAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, ActorSystemContext.class})
public final class TbActorsMetricsAutoConfiguration {

    TbActorsMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    TbActorsMetricsListener tbActorsMetricsListener(MeterRegistry registry, TbActorsProperties properties) {
        return new TbActorsMetricsListener(registry, properties.getMetrics().isWaitTime());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({TbActorSystemIntrospection.class, ActorSystemContext.class})
    TbActorsMeterBinder tbActorsMeterBinder(TbActorSystemIntrospection actorSystem, ActorSystemContext actorSystemContext) {
        return new TbActorsMeterBinder(actorSystem, actorSystemContext);
    }
}
