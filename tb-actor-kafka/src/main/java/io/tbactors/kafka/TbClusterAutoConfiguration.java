package io.tbactors.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.kafka.actuate.ClusterHealthIndicator;
import io.tbactors.kafka.actuate.DeadLettersEndpoint;
import io.tbactors.kafka.codec.JsonTbActorMsgCodec;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.kafka.metrics.TbClusterMeterBinder;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
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
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import java.util.function.Consumer;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Routing of entity messages across nodes. With spring-kafka on the classpath and an {@link ActorSystemContext}, it
 * always provides a {@link TbClusterRouter}: a local one, or, with {@code tb.actors.cluster.enabled=true}, one backed
 * by this node's {@link KafkaClusterMember} of the consumer group. Kafka clients are configured from
 * {@code spring.kafka.*} (security, SSL, servers) with the settings the cluster depends on forced on top, and
 * {@code tb.actors.cluster.consumer.*}/{@code producer.*} last. None of them is exposed as a bean, so the
 * application's own Kafka beans stay as Spring Boot configures them.
 */
@AutoConfiguration(after = TbActorsAutoConfiguration.class,
        afterName = {"org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
                "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass({KafkaTemplate.class, ActorSystemContext.class})
@ConditionalOnBean(ActorSystemContext.class)
@EnableConfigurationProperties(TbClusterProperties.class)
public class TbClusterAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TbActorMsgCodec tbActorMsgCodec(TbClusterProperties properties, ObjectProvider<JsonMapper> jsonMapper) {
        return new JsonTbActorMsgCodec(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()),
                properties.messageTypesAsMessages());
    }

    @Bean
    @ConditionalOnMissingBean
    EntityDeliveries tbClusterDeliveries(ActorSystemContext actorSystemContext, TbClusterProperties properties) {
        return new EntityDeliveries(actorSystemContext, properties);
    }

    @Bean
    @ConditionalOnMissingBean(TbClusterRouter.class)
    @ConditionalOnBooleanProperty(name = "tb.actors.cluster.enabled", havingValue = false, matchIfMissing = true)
    LocalTbClusterRouter localTbClusterRouter(EntityDeliveries deliveries) {
        return new LocalTbClusterRouter(deliveries);
    }

    @Bean
    @ConditionalOnMissingBean(TbNodeChannel.class)
    @ConditionalOnBooleanProperty(name = "tb.actors.cluster.enabled", havingValue = false, matchIfMissing = true)
    LocalTbNodeChannel localTbNodeChannel(ObjectProvider<TbBroadcastListener> listeners) {
        return new LocalTbNodeChannel(listeners.orderedStream().toList());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("tb.actors.cluster.enabled")
    static class KafkaClusterConfiguration {

        @Bean
        KafkaClientConfigs tbClusterKafkaClientConfigs(TbClusterProperties properties, ObjectProvider<KafkaProperties> kafkaProperties,
                                                       ObjectProvider<KafkaConnectionDetails> connectionDetails) {
            return new KafkaClientConfigs(properties, kafkaProperties.getIfAvailable(), connectionDetails.getIfAvailable());
        }

        @Bean
        @ConditionalOnMissingBean
        KafkaTbNodeChannel tbKafkaNodeChannel(TbClusterProperties properties, KafkaClientConfigs configs, TbActorMsgCodec codec,
                                              ObjectProvider<TbBroadcastListener> listeners) {
            return new KafkaTbNodeChannel(properties, configs, codec, listeners.orderedStream().toList());
        }

        @Bean
        @ConditionalOnMissingBean
        KafkaClusterMember tbKafkaClusterMember(TbClusterProperties properties, KafkaClientConfigs configs, TbActorMsgCodec codec,
                                                ActorSystemContext actorSystemContext, EntityDeliveries deliveries,
                                                KafkaTbNodeChannel channel) {
            DefaultKafkaConsumerFactory<String, byte[]> consumers = new DefaultKafkaConsumerFactory<>(configs.consumer());
            KafkaClusterMember member = new KafkaClusterMember(properties, consumers::createConsumer, codec, actorSystemContext, deliveries,
                    new TopicPreparer(properties, configs.admin()),
                    new DeadLetterPublisher(properties.deadLetterTopicName(), new DefaultKafkaProducerFactory<>(configs.producer())));
            member.setReplies(channel);
            return member;
        }

        @Bean
        @ConditionalOnMissingBean
        ClusterConnectivity tbClusterConnectivity(TbClusterProperties properties, KafkaClientConfigs configs,
                                                  ApplicationEventPublisher publisher,
                                                  ObjectProvider<ApplicationAvailability> availability) {
            Consumer<ClusterConnectivity.Status> readiness = properties.isRefuseTrafficWhileUnreachable()
                    ? new ReadinessFollowsKafka(publisher, () -> {
                        ApplicationAvailability current = availability.getIfAvailable();
                        return current == null ? null : current.getReadinessState();
                    })
                    : status -> { };
            return new ClusterConnectivity(configs.admin(), properties.getGroupId(), properties.getConnectivityCheckInterval(),
                    readiness);
        }

        @Bean
        @ConditionalOnMissingBean(TbClusterRouter.class)
        KafkaTbClusterRouter kafkaTbClusterRouter(TbClusterProperties properties, KafkaClusterMember member, KafkaClientConfigs configs,
                                                  TbActorMsgCodec codec, EntityDeliveries deliveries, KafkaTbNodeChannel channel) {
            return new KafkaTbClusterRouter(properties, member, new DefaultKafkaProducerFactory<>(configs.producer()), codec,
                    deliveries, channel);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(HealthIndicator.class)
        @ConditionalOnEnabledHealthIndicator("actorscluster")
        static class HealthConfiguration {

            @Bean
            @ConditionalOnMissingBean(name = "actorsClusterHealthIndicator")
            ClusterHealthIndicator actorsClusterHealthIndicator(KafkaClusterMember member, ClusterConnectivity connectivity) {
                return new ClusterHealthIndicator(member, connectivity);
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
        static class EndpointConfiguration {

            @Bean
            @ConditionalOnMissingBean
            @ConditionalOnAvailableEndpoint
            DeadLettersEndpoint deadLettersEndpoint(KafkaClusterMember member) {
                return new DeadLettersEndpoint(member);
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(MeterRegistry.class)
        @ConditionalOnBean(MeterRegistry.class)
        static class MetricsConfiguration {

            @Bean
            @ConditionalOnMissingBean
            TbClusterMeterBinder tbClusterMeterBinder(KafkaClusterMember member, ObjectProvider<KafkaTbClusterRouter> router) {
                return new TbClusterMeterBinder(member, router.getIfAvailable());
            }
        }
    }
}
