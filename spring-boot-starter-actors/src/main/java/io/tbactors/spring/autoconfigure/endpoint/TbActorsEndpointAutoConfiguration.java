package io.tbactors.spring.autoconfigure.endpoint;

import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.actuate.TbActorsDispatchersEndpoint;
import io.tbactors.spring.actuate.TbActorsEndpoint;
import io.tbactors.spring.actuate.TbActorsEventsEndpoint;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code tbactors}, {@code tbactorsdispatchers} and {@code tbactorsevents} actuator endpoints, each created only when exposed and when
 * the actor system offers {@link TbActorSystemIntrospection}.
 */
@AutoConfiguration(after = TbActorsAutoConfiguration.class,
        beforeName = "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration")
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean({TbActorSystemIntrospection.class, ActorSystemContext.class})
public final class TbActorsEndpointAutoConfiguration {

    TbActorsEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    TbActorsDispatchersEndpoint tbActorsDispatchersEndpoint(TbActorSystemIntrospection actorSystem) {
        return new TbActorsDispatchersEndpoint(actorSystem);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    TbActorsEndpoint tbActorsEndpoint(TbActorSystemIntrospection actorSystem, ActorSystemContext actorSystemContext) {
        return new TbActorsEndpoint(actorSystem, actorSystemContext);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    TbActorsEventsEndpoint tbActorsEventsEndpoint(TbActorSystemIntrospection actorSystem) {
        return new TbActorsEventsEndpoint(actorSystem);
    }
}
