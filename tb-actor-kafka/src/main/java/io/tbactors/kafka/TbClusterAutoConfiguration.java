package io.tbactors.kafka;

import io.tbactors.kafka.codec.JsonTbActorMsgCodec;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Routing of entity messages, whether or not the application runs as a cluster: with spring-kafka on the classpath
 * and an {@link ActorSystemContext}, it provides the message codec, the deliveries to the root actor and, unless
 * {@code tb.actors.cluster.enabled=true} (then {@link KafkaClusterAutoConfiguration} provides them), a
 * {@link TbClusterRouter} and a {@link TbNodeChannel} that stay on this node.
 */
@AutoConfiguration(after = TbActorsAutoConfiguration.class)
@ConditionalOnClass({KafkaTemplate.class, ActorSystemContext.class})
@ConditionalOnBean(ActorSystemContext.class)
@EnableConfigurationProperties(TbClusterProperties.class)
public final class TbClusterAutoConfiguration {

    TbClusterAutoConfiguration() {
    }

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
}
