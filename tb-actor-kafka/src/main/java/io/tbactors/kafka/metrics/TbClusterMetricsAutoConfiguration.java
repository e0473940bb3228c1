package io.tbactors.kafka.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.kafka.KafkaClusterAutoConfiguration;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.KafkaTbClusterRouter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code tb.actors.cluster.*} meters of a cluster member, when the application has a Micrometer
 * {@link MeterRegistry}.
 */
@AutoConfiguration(after = KafkaClusterAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, KafkaClusterMember.class})
public final class TbClusterMetricsAutoConfiguration {

    TbClusterMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    TbClusterMeterBinder tbClusterMeterBinder(KafkaClusterMember member, ObjectProvider<KafkaTbClusterRouter> router) {
        return new TbClusterMeterBinder(member, router.getIfAvailable());
    }
}
