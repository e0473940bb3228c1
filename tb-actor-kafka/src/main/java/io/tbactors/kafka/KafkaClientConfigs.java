package io.tbactors.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/**
 * The Kafka client settings of the cluster: the application's {@code spring.kafka.*} ones when Spring Boot's Kafka
 * support is configured, the settings the cluster's guarantees rest on (manual commits, idempotent producer with
 * {@code acks=all}, cooperative rebalancing, reading from the start when the group has no offset), then the
 * overrides under {@code tb.actors.cluster.consumer.*} and {@code producer.*}.
 */
public final class KafkaClientConfigs {

    private final Map<String, Object> consumer;
    private final Map<String, Object> producer;
    private final Map<String, Object> admin;
    private final Map<String, Object> inbox;

    /**
     * @param properties the cluster's settings
     * @param kafkaProperties Spring Boot's {@code spring.kafka.*} settings, or null
     * @param connectionDetails Spring Boot's connection details, or null
     */
    public KafkaClientConfigs(TbClusterProperties properties, KafkaProperties kafkaProperties, KafkaConnectionDetails connectionDetails) {
        String servers = bootstrapServers(properties, kafkaProperties, connectionDetails);
        consumer = base(kafkaProperties == null ? null : kafkaProperties.buildConsumerProperties(), servers);
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, properties.getGroupId());
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, List.of(CooperativeStickyAssignor.class));
        // the topic is created by the member with its partition count, never by a consumer with the broker's default
        consumer.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        consumer.putAll(properties.getConsumer());
        // the group's members are told apart by client id: it names each node's inbox topic (see TbNodeChannel)
        consumer.put(ConsumerConfig.CLIENT_ID_CONFIG, properties.nodeName());
        if (properties.getGroupInstanceId() != null) {
            consumer.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, properties.getGroupInstanceId());
        }
        inbox = new HashMap<>(consumer);
        inbox.remove(ConsumerConfig.GROUP_ID_CONFIG);
        inbox.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        inbox.remove(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
        inbox.put(ConsumerConfig.CLIENT_ID_CONFIG, properties.nodeName() + "-inbox");
        inbox.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");

        producer = base(kafkaProperties == null ? null : kafkaProperties.buildProducerProperties(), servers);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producer.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        producer.putAll(properties.getProducer());
        boundBySendTimeout(producer, properties.getSendTimeout().toMillis());

        admin = base(kafkaProperties == null ? null : kafkaProperties.buildAdminProperties(), servers);
    }

    /**
     * No send may block its caller, nor wait for Kafka's answer, longer than the send timeout: the producer's
     * defaults (60 s blocked in send when Kafka is unreachable or the buffer full, 120 s until a record expires) would
     * outlast any caller's reply timeout. The request timeout shrinks to fit, as Kafka requires
     * delivery.timeout.ms >= linger.ms + request.timeout.ms.
     */
    private static void boundBySendTimeout(Map<String, Object> producer, long sendTimeoutMillis) {
        int timeout = (int) Math.min(Integer.MAX_VALUE, sendTimeoutMillis);
        long linger = millis(producer.get(ProducerConfig.LINGER_MS_CONFIG), 5);
        long request = millis(producer.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG), 30_000);
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (long) timeout);
        producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeout);
        producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1, Math.min(request, timeout - linger)));
    }

    private static long millis(Object value, long otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(value.toString().strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String bootstrapServers(TbClusterProperties properties, KafkaProperties kafkaProperties,
                                           KafkaConnectionDetails connectionDetails) {
        if (!properties.getBootstrapServers().isEmpty()) {
            return String.join(",", properties.getBootstrapServers());
        }
        if (connectionDetails != null && !connectionDetails.getBootstrapServers().isEmpty()) {
            return String.join(",", connectionDetails.getBootstrapServers());
        }
        if (kafkaProperties != null && !kafkaProperties.getBootstrapServers().isEmpty()) {
            return String.join(",", kafkaProperties.getBootstrapServers());
        }
        return "localhost:9092";
    }

    private static Map<String, Object> base(Map<String, Object> fromSpring, String servers) {
        Map<String, Object> config = fromSpring == null ? new HashMap<>() : new HashMap<>(fromSpring);
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, servers);
        return config;
    }

    /** @return the consumer's settings */
    public Map<String, Object> consumer() {
        return consumer;
    }

    /** @return the settings of the consumer of this node's inbox topic: no group, reading from the end */
    public Map<String, Object> inbox() {
        return inbox;
    }

    /** @return the producer's settings */
    public Map<String, Object> producer() {
        return producer;
    }

    /** @return the admin client's settings */
    public Map<String, Object> admin() {
        return admin;
    }
}
