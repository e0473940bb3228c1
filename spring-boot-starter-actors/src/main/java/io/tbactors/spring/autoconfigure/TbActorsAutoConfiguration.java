package io.tbactors.spring.autoconfigure;

import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.DeadLetterEventBridge;
import io.tbactors.spring.TbActorsLifecycle;
import io.tbactors.spring.TbRootActorCreator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the actor system itself: its settings and dispatchers from {@code tb.actors.*}, the
 * {@link ActorSystemContext}, the lifecycle that starts the root actor and drains on shutdown, and the bridge from
 * dead letters to application events. Every bean steps aside for one of the application's own; an application that
 * declares its own {@link TbActorSystem} keeps it, and the beans here work against that interface.
 * {@code tb.actors.enabled=false} switches all of it off.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "tb.actors.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TbActorsProperties.class)
public final class TbActorsAutoConfiguration {

    TbActorsAutoConfiguration() {
    }

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
        return TbActorSystemFactory.create(settings, properties,
                CompositeTbActorSystemListener.of(listeners.orderedStream().toList()), environment);
    }

    @Bean
    @ConditionalOnMissingBean
    ActorSystemContext actorSystemContext(TbActorSystem actorSystem, ApplicationContext applicationContext,
                                          ObjectProvider<TbRootActorCreator> rootActorCreators) {
        return new ActorSystemContext(actorSystem, applicationContext, rootActorCreators);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(TbActorSystemIntrospection.class)
    @ConditionalOnBooleanProperty(name = "tb.actors.dead-letters.publish-events", matchIfMissing = true)
    DeadLetterEventBridge tbDeadLetterEventBridge(TbActorSystemIntrospection actorSystem, ApplicationEventPublisher publisher) {
        return new DeadLetterEventBridge(actorSystem, publisher);
    }

    @Bean
    @ConditionalOnMissingBean
    TbActorsLifecycle tbActorsLifecycle(TbActorSystem actorSystem, ActorSystemContext actorSystemContext,
                                        TbActorsProperties properties) {
        return new TbActorsLifecycle(actorSystem, actorSystemContext, properties.getRootDispatcher(),
                properties.getShutdownTimeout());
    }
}
