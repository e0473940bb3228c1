package io.tbactors.kafka.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.kafka.KafkaClusterMember;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbClusterMetricsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, TbClusterMetricsAutoConfiguration.class))
            .withBean(KafkaClusterMember.class, () -> {
                KafkaClusterMember member = mock(KafkaClusterMember.class);
                when(member.getOwnedPartitions()).thenReturn(Set.of(0, 3));
                return member;
            });

    @Test
    void aClusterMembersMetersAreBoundToTheRegistry() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TbClusterMeterBinder.class);
            assertThat(context.getBean(MeterRegistry.class).get(TbClusterMeterBinder.PARTITIONS_OWNED).gauge().value()).isEqualTo(2.0);
        });
    }

    @Test
    void withoutMicrometerOrWithoutAClusterMemberThereAreNone() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TbClusterMetricsAutoConfiguration.class))
                .withBean(KafkaClusterMember.class, () -> mock(KafkaClusterMember.class))
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TbClusterMeterBinder.class));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        TbClusterMetricsAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TbClusterMeterBinder.class));
    }
}
