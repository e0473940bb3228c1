package io.tbactors.kafka.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.tbactors.kafka.ClusterConnectivity;
import io.tbactors.kafka.KafkaClusterMember;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbClusterHealthAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbClusterHealthAutoConfiguration.class))
            .withBean(KafkaClusterMember.class, () -> mock(KafkaClusterMember.class))
            .withBean(ClusterConnectivity.class, () -> mock(ClusterConnectivity.class));

    @Test
    void aClusterMemberHasTheActorsClusterHealthComponent() {
        runner.run(context -> assertThat(context).hasSingleBean(ClusterHealthIndicator.class).hasBean("actorsClusterHealthIndicator"));
    }

    @Test
    void managementHealthActorsClusterEnabledFalseRemovesIt() {
        runner.withPropertyValues("management.health.actorscluster.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ClusterHealthIndicator.class));
    }

    @Test
    void withoutSpringBootsHealthSupportThereIsNone() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("actorsClusterHealthIndicator"));
    }

    @Test
    void withoutAClusterMemberThereIsNone() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TbClusterHealthAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ClusterHealthIndicator.class));
    }

    @Test
    void theApplicationsOwnIndicatorOfThatNameReplacesIt() {
        HealthIndicator own = () -> Health.up().build();
        runner.withBean("actorsClusterHealthIndicator", HealthIndicator.class, () -> own)
                .run(context -> assertThat(context.getBean("actorsClusterHealthIndicator")).isSameAs(own));
    }
}
