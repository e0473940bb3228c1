package io.tbactors.kafka;

import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.spring.ActorSystemContext;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.stereotype.Component;

/** Builds cluster members for tests that need to tamper with the consumer, as the auto-configuration would. */
@Component
public class TestMembers {

    private final TbClusterProperties properties;
    private final KafkaClientConfigs configs;
    private final TbActorMsgCodec codec;
    private final ActorSystemContext actorSystemContext;
    private final EntityDeliveries deliveries;

    TestMembers(TbClusterProperties properties, KafkaClientConfigs configs, TbActorMsgCodec codec,
                ActorSystemContext actorSystemContext, EntityDeliveries deliveries) {
        this.properties = properties;
        this.configs = configs;
        this.codec = codec;
        this.actorSystemContext = actorSystemContext;
        this.deliveries = deliveries;
    }

    /**
     * @param consumerWrapper wraps the consumer the member would use
     * @return a member that polls through the wrapped consumer
     */
    public KafkaClusterMember member(UnaryOperator<Consumer<String, byte[]>> consumerWrapper) {
        return member(consumerWrapper, UnaryOperator.identity());
    }

    /**
     * @param consumerWrapper wraps the consumer the member would use
     * @param producerWrapper wraps the producer of its dead letters and ownership markers
     * @return a member that polls and writes through the wrapped clients
     */
    public KafkaClusterMember member(UnaryOperator<Consumer<String, byte[]>> consumerWrapper,
                                     UnaryOperator<Producer<String, byte[]>> producerWrapper) {
        DefaultKafkaConsumerFactory<String, byte[]> consumers = new DefaultKafkaConsumerFactory<>(configs.consumer());
        DefaultKafkaProducerFactory<String, byte[]> producers = new DefaultKafkaProducerFactory<>(configs.producer()) {
            @Override
            public Producer<String, byte[]> createProducer() {
                return producerWrapper.apply(super.createProducer());
            }
        };
        return new KafkaClusterMember(properties, () -> consumerWrapper.apply(consumers.createConsumer()), codec,
                actorSystemContext, deliveries, new TopicPreparer(properties, configs.admin()),
                new DeadLetterPublisher(properties.deadLetterTopicName(), producers));
    }
}
