package io.tbactors.spring;

import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.observe.TbActorSystemListener;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of a TB Actors system: its settings, dispatchers, {@link ActorSystemContext} and lifecycle.
 * Every bean can be replaced by one of the application's own; {@code tb.actors.enabled=false} switches it all off.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnBooleanProperty(name = "tb.actors.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TbActorsProperties.class)
public class TbActorsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TbActorSystemSettings tbActorSystemSettings(TbActorsProperties properties) {
        return TbActorSystemFactory.settings(properties);
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
        List<TbRootActorCreator> roots = rootActorCreators.orderedStream().toList();
        if (roots.size() > 1) {
            throw new IllegalStateException("Found " + roots.size() + " root actor declarations "
                    + List.of(applicationContext.getBeanNamesForType(TbRootActorCreator.class))
                    + ": declare exactly one bean of type " + TbRootActorCreator.class.getName());
        }
        return new ActorSystemContext(actorSystem, applicationContext, roots.isEmpty() ? null : roots.get(0));
    }

    @Bean
    @ConditionalOnMissingBean
    TbActorsLifecycle tbActorsLifecycle(DefaultTbActorSystem actorSystem, ActorSystemContext actorSystemContext,
                                        TbActorsProperties properties) {
        return new TbActorsLifecycle(actorSystem, actorSystemContext, properties);
    }
}
