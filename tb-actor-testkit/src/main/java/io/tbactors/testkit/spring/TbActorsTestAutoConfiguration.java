package io.tbactors.testkit.spring;

import io.tbactors.api.TbActorSystem;
import io.tbactors.testkit.TbActorProbes;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Test auto-configuration imported by {@link AutoConfigureTbActors}: a {@link TbActorProbes} bean over the
 * application's actor system, whose registered probes run on {@code tb.actors.root-dispatcher} ({@code default}
 * unless set).
 */
@AutoConfiguration(afterName = "io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration")
@ConditionalOnBean(TbActorSystem.class)
public final class TbActorsTestAutoConfiguration {

    TbActorsTestAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    TbActorProbes tbActorProbes(TbActorSystem system, Environment environment) {
        return new TbActorProbes(system, environment.getProperty("tb.actors.root-dispatcher", "default"));
    }
}
