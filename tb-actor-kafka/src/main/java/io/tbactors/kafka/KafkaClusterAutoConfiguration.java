package io.tbactors.kafka;

import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.spring.ActorSystemContext;
import java.util.function.Consumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;

/**
 * This node as a member of the cluster, with {@code tb.actors.cluster.enabled=true}: its {@link KafkaClusterMember}
 * of the consumer group, the {@link KafkaTbClusterRouter} that sends through the topic, the {@link KafkaTbNodeChannel}
 * of its inbox and the watch on Kafka's reachability that drives its readiness. Kafka clients are configured from
 * {@code spring.kafka.*} (security, SSL, servers) with the settings the cluster depends on forced on top, and
 * {@code tb.actors.cluster.consumer.*}/{@code producer.*} last. None of them is exposed as a bean, so the
 * application's own Kafka beans stay as Spring Boot configures them.
 */
@AutoConfiguration(after = TbClusterAutoConfiguration.class,
        afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnBean({EntityDeliveries.class, TbActorMsgCodec.class})
@ConditionalOnBooleanProperty("tb.actors.cluster.enabled")
public final class KafkaClusterAutoConfiguration {

    KafkaClusterAutoConfiguration() {
    }

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
        return new ClusterConnectivity(configs.admin(), properties.getGroupId(), properties.nodeName(),
                properties.getConnectivityCheckInterval(),
                readiness);
    }

    @Bean
    @ConditionalOnMissingBean(TbClusterRouter.class)
    KafkaTbClusterRouter kafkaTbClusterRouter(TbClusterProperties properties, KafkaClusterMember member, KafkaClientConfigs configs,
                                              TbActorMsgCodec codec, EntityDeliveries deliveries, KafkaTbNodeChannel channel) {
        return new KafkaTbClusterRouter(properties, member, new DefaultKafkaProducerFactory<>(configs.producer()), codec,
                deliveries, channel);
    }
}
