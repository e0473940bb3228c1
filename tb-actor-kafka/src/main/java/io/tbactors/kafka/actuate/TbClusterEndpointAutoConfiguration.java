package io.tbactors.kafka.actuate;

import io.tbactors.kafka.KafkaClusterAutoConfiguration;
import io.tbactors.kafka.KafkaClusterMember;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code tbactorsdeadletters} actuator endpoint of a cluster member, when the application has Spring Boot's
 * actuator and exposes the endpoint.
 */
@AutoConfiguration(after = KafkaClusterAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(KafkaClusterMember.class)
public final class TbClusterEndpointAutoConfiguration {

    TbClusterEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    DeadLettersEndpoint deadLettersEndpoint(KafkaClusterMember member) {
        return new DeadLettersEndpoint(member);
    }
}
