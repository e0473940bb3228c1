package io.tbactors.kafka.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import io.tbactors.kafka.KafkaClusterMember;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbClusterEndpointAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbClusterEndpointAutoConfiguration.class))
            .withBean(KafkaClusterMember.class, () -> mock(KafkaClusterMember.class));

    @Test
    void theDeadLettersEndpointExistsOnlyWhenExposedUnderItsPrefixedId() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=tbactorsdeadletters")
                .run(context -> assertThat(context).hasSingleBean(DeadLettersEndpoint.class));
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DeadLettersEndpoint.class));
        assertThat(DeadLettersEndpoint.class.getAnnotation(Endpoint.class).id()).isEqualTo("tbactorsdeadletters");
    }

    @Test
    void withoutActuatorOrWithoutAClusterMemberThereIsNone() {
        runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
                .withPropertyValues("management.endpoints.web.exposure.include=*")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DeadLettersEndpoint.class));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TbClusterEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=*")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DeadLettersEndpoint.class));
    }
}
