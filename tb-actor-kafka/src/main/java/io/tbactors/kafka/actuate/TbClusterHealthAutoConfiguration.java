package io.tbactors.kafka.actuate;

import io.tbactors.kafka.ClusterConnectivity;
import io.tbactors.kafka.KafkaClusterAutoConfiguration;
import io.tbactors.kafka.KafkaClusterMember;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code actorsCluster} health component of a cluster member, when the application has Spring Boot's health
 * support; {@code management.health.actorscluster.enabled=false} removes it.
 */
@AutoConfiguration(after = KafkaClusterAutoConfiguration.class,
        beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({KafkaClusterMember.class, ClusterConnectivity.class})
@ConditionalOnEnabledHealthIndicator("actorscluster")
public final class TbClusterHealthAutoConfiguration {

    TbClusterHealthAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(name = "actorsClusterHealthIndicator")
    ClusterHealthIndicator actorsClusterHealthIndicator(KafkaClusterMember member, ClusterConnectivity connectivity) {
        return new ClusterHealthIndicator(member, connectivity);
    }
}
