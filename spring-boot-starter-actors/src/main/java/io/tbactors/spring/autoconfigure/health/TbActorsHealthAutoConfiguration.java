package io.tbactors.spring.autoconfigure.health;

import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.actuate.ActorsHealthIndicator;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.autoconfigure.TbActorsProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code actors} health component, when the application has Spring Boot's health support and its actor system
 * offers {@link TbActorSystemIntrospection}; {@code management.health.actors.enabled=false} removes it.
 */
@AutoConfiguration(after = TbActorsAutoConfiguration.class,
        beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({TbActorSystemIntrospection.class, ActorSystemContext.class})
@ConditionalOnEnabledHealthIndicator("actors")
public final class TbActorsHealthAutoConfiguration {

    TbActorsHealthAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = "actorsHealthIndicator")
    ActorsHealthIndicator actorsHealthIndicator(TbActorSystemIntrospection actorSystem, ActorSystemContext actorSystemContext,
                                                TbActorsProperties properties) {
        return new ActorsHealthIndicator(actorSystem, actorSystemContext, properties.getHealth().getBacklogWarningThreshold());
    }
}
