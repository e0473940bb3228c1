package io.tbactors.spring;

import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.spring.actuate.ActorsEndpoint;
import io.tbactors.spring.actuate.ActorsHealthIndicator;
import io.tbactors.spring.actuate.DispatchersEndpoint;
import io.tbactors.spring.metrics.TbActorsMeterBinder;
import io.tbactors.spring.metrics.TbActorsMetricsListener;
import io.tbactors.spring.tracing.ContextSnapshotMessagePropagator;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of a TB Actors system: its settings, dispatchers, {@link ActorSystemContext} and lifecycle, and,
 * when the application has them, its health indicator, actuator endpoints, metrics and trace-context propagation.
 * Every bean can be replaced by one of the application's own; {@code tb.actors.enabled=false} switches it all off.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnBooleanProperty(name = "tb.actors.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TbActorsProperties.class)
public class TbActorsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TbActorSystemSettings tbActorSystemSettings(TbActorsProperties properties,
                                                ObjectProvider<TbMessageContextPropagator> contextPropagator) {
        return TbActorSystemFactory.settings(properties, contextPropagator.getIfAvailable());
    }

    @Bean(destroyMethod = "stop")
    @ConditionalOnMissingBean(TbActorSystem.class)
    DefaultTbActorSystem tbActorSystem(TbActorSystemSettings settings, TbActorsProperties properties,
                                       ObjectProvider<TbActorSystemListener> listeners, Environment environment) {
        List<TbActorSystemListener> all = listeners.orderedStream().toList();
        return TbActorSystemFactory.create(settings, properties, CompositeTbActorSystemListener.of(all), environment);
    }

    @Bean
    @ConditionalOnMissingBean
    ActorSystemContext actorSystemContext(DefaultTbActorSystem actorSystem, ApplicationContext applicationContext,
                                          ObjectProvider<TbRootActorCreator> rootActorCreators) {
        return new ActorSystemContext(actorSystem, applicationContext, rootActorCreators);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "tb.actors.dead-letters.publish-events", matchIfMissing = true)
    DeadLetterEventBridge tbDeadLetterEventBridge(DefaultTbActorSystem actorSystem, ApplicationEventPublisher publisher) {
        return new DeadLetterEventBridge(actorSystem, publisher);
    }

    @Bean
    @ConditionalOnMissingBean
    TbActorsLifecycle tbActorsLifecycle(DefaultTbActorSystem actorSystem, ActorSystemContext actorSystemContext,
                                        TbActorsProperties properties) {
        return new TbActorsLifecycle(actorSystem, actorSystemContext, properties);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("actors")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "actorsHealthIndicator")
        ActorsHealthIndicator actorsHealthIndicator(DefaultTbActorSystem actorSystem, ActorSystemContext actorSystemContext,
                                                    TbActorsProperties properties) {
            return new ActorsHealthIndicator(actorSystem, actorSystemContext, properties.getHealth().getBacklogWarningThreshold());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        DispatchersEndpoint dispatchersEndpoint(DefaultTbActorSystem actorSystem) {
            return new DispatchersEndpoint(actorSystem);
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        ActorsEndpoint actorsEndpoint(DefaultTbActorSystem actorSystem, ActorSystemContext actorSystemContext) {
            return new ActorsEndpoint(actorSystem, actorSystemContext);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        TbActorsMetricsListener tbActorsMetricsListener(MeterRegistry registry, TbActorsProperties properties) {
            return new TbActorsMetricsListener(registry, properties.getMetrics().isWaitTime());
        }

        @Bean
        @ConditionalOnMissingBean
        TbActorsMeterBinder tbActorsMeterBinder(DefaultTbActorSystem actorSystem, ActorSystemContext actorSystemContext) {
            return new TbActorsMeterBinder(actorSystem, actorSystemContext);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ContextSnapshotFactory.class)
    @ConditionalOnBooleanProperty("tb.actors.tracing.enabled")
    static class TracingConfiguration {

        @Bean
        @ConditionalOnMissingBean
        TbMessageContextPropagator tbMessageContextPropagator() {
            return new ContextSnapshotMessagePropagator();
        }
    }
}
