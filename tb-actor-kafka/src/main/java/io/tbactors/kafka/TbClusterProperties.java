package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import io.tbactors.spring.InvalidTbActorsPropertyException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Scale-out over Kafka, under {@code tb.actors.cluster}: every node of the application joins one consumer group on
 * one topic; each node owns some of its partitions and the entities whose ids hash to them.
 */
@ConfigurationProperties(prefix = TbClusterProperties.PREFIX)
public class TbClusterProperties {

    /** Prefix of the cluster's properties. */
    public static final String PREFIX = "tb.actors.cluster";

    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    /** Whether messages for entities are routed through Kafka to the node owning the entity's partition. */
    private boolean enabled;

    /** Topic that carries the messages for entities; every node of the application uses the same. */
    private String topic = "tb-actors.entities";

    /** Consumer group every node of the application joins. */
    private String groupId = "tb-actors";

    /**
     * This node's name in the cluster: its consumer's client.id and the suffix of its inbox topic
     * ({@code <topic>.node.<node-id>}), where replies and broadcasts for it arrive. Letters, digits, '.', '_' and
     * '-'. Unset: consumer[client.id] when set, else group-instance-id when set, else a random name (whose inbox
     * topic is deleted when the node stops gracefully).
     */
    private String nodeId;

    /**
     * Static membership: this node's group.instance.id, stable across its restarts (a pod name, a host name). A node
     * that comes back within the session timeout gets its partitions back without a rebalance; a node that stops
     * for good keeps its partitions until the session timeout ends. Unset: dynamic membership.
     */
    private String groupInstanceId;

    private transient String generatedNodeId;

    /** Kafka servers to connect to; unset uses those of spring.kafka.bootstrap-servers. */
    private List<String> bootstrapServers = new ArrayList<>();

    /** Whether to create the topic at start-up when it does not exist. */
    private boolean createTopic = true;

    /** Partitions of the topic when this node creates it; at least 1. More partitions allow more nodes. */
    private int partitions = 12;

    /** Replication factor of the topic when this node creates it; at least 1. */
    private short replicationFactor = 1;

    /** When a message for an entity owned by this node is told directly, without going through Kafka. */
    private LocalDelivery localDelivery = LocalDelivery.OWNED;

    /** Longest time one poll of the consumer waits for records. */
    private Duration pollTimeout = Duration.ofMillis(200);

    /** How often the offsets of completed records are committed. */
    private Duration commitInterval = Duration.ofSeconds(1);

    /** Records handed to the actors and not yet completed above which the node stops fetching; at least 1. */
    private int maxInFlight = 1000;

    /** Longest wait, on revocation and shutdown, for the records of the partitions given up to complete. */
    private Duration revocationTimeout = Duration.ofSeconds(10);

    /**
     * Times a message is delivered again after it came back unprocessed (mailbox full, actor stopped or passivated)
     * or, for a record, after its actor reported a failure or its processing timed out; 0 or more. A record still not
     * processed then goes to the dead-letter topic.
     */
    private int maxRedeliveries = 3;

    /** Delay before the first redelivery; it doubles with each further one, up to max-redelivery-delay. */
    private Duration redeliveryDelay = Duration.ofMillis(100);

    /** Longest delay between two deliveries of one message. */
    private Duration maxRedeliveryDelay = Duration.ofSeconds(5);

    /**
     * Longest time a record's actor may take to complete it (processed or failed) before that delivery counts as
     * failed and the record is delivered again.
     */
    private Duration processingTimeout = Duration.ofSeconds(30);

    /**
     * Topic of the records given up after their redeliveries, with the reason in headers; unset: the topic's name
     * followed by {@code .dlt}.
     */
    private String deadLetterTopic;

    /**
     * Longest time a send through Kafka may take, blocking included: the producer's max.block.ms and
     * delivery.timeout.ms. Keep it below the reply timeout of whoever waits for the send.
     */
    private Duration sendTimeout = Duration.ofSeconds(5);

    /**
     * Whether the node starts while Kafka cannot be reached: it keeps trying to join in the background, sends fail at
     * once until it knows the topic, and its readiness refuses traffic meanwhile. Off, start-up fails after 30 s.
     */
    private boolean startWithoutKafka;

    /** How often this node asks Kafka whether a broker and the group's coordinator answer; also each check's timeout. */
    private Duration connectivityCheckInterval = Duration.ofSeconds(5);

    /** Whether this node's readiness refuses traffic while a broker or the group's coordinator cannot be reached. */
    private boolean refuseTrafficWhileUnreachable = true;

    /** Message types that may cross the wire with the default JSON codec, by the name written in each record. */
    private Map<String, Class<?>> messageTypes = new LinkedHashMap<>();

    /** Additional Kafka consumer properties, such as session.timeout.ms; they override the defaults. */
    private Map<String, String> consumer = new LinkedHashMap<>();

    /** Additional Kafka producer properties, such as linger.ms; they override the defaults. */
    private Map<String, String> producer = new LinkedHashMap<>();

    /** When a message for an entity may skip Kafka. */
    public enum LocalDelivery {
        /**
         * Told directly when this node owns the entity's partition (and has read it up to its assignment). Messages
         * of one sender keep their order; messages for one entity sent at the same time through different nodes
         * have no order relative to each other.
         */
        OWNED,
        /** Always through Kafka: one order per entity across all senders, at the cost of a round trip to Kafka. */
        NEVER
    }

    /**
     * Checks the values a cluster member cannot run with.
     *
     * @throws InvalidTbActorsPropertyException naming the property and what it may be
     */
    public void validate() {
        requireText("topic", topic);
        requireText("group-id", groupId);
        atLeast("partitions", partitions, 1);
        atLeast("replication-factor", replicationFactor, 1);
        atLeast("max-in-flight", maxInFlight, 1);
        atLeast("max-redeliveries", maxRedeliveries, 0);
        positive("poll-timeout", pollTimeout);
        positive("commit-interval", commitInterval);
        positive("revocation-timeout", revocationTimeout);
        positive("redelivery-delay", redeliveryDelay);
        positive("max-redelivery-delay", maxRedeliveryDelay);
        positive("processing-timeout", processingTimeout);
        positive("send-timeout", sendTimeout);
        positive("connectivity-check-interval", connectivityCheckInterval);
        if (deadLetterTopic != null) {
            requireText("dead-letter-topic", deadLetterTopic);
            if (deadLetterTopic.equals(topic)) {
                throw new InvalidTbActorsPropertyException(PREFIX + ".dead-letter-topic", deadLetterTopic,
                        "a topic other than " + PREFIX + ".topic");
            }
        }
        validateMessageTypes();
        validateClientOverrides();
        validateNodeNames();
    }

    private void validateNodeNames() {
        if (nodeId != null && !NODE_NAME.matcher(nodeId).matches()) {
            throw new InvalidTbActorsPropertyException(PREFIX + ".node-id", nodeId,
                    "letters, digits, '.', '_' and '-' only (it names a topic), at most 200 characters, or leave it unset");
        }
        if (groupInstanceId != null && !NODE_NAME.matcher(groupInstanceId).matches()) {
            throw new InvalidTbActorsPropertyException(PREFIX + ".group-instance-id", groupInstanceId,
                    "letters, digits, '.', '_' and '-' only, at most 200 characters, or leave it unset");
        }
        String clientId = consumer.get("client.id");
        if (clientId != null && !NODE_NAME.matcher(clientId).matches()) {
            throw new InvalidTbActorsPropertyException(PREFIX + ".consumer[client.id]", clientId,
                    "letters, digits, '.', '_' and '-' only (it names this node's inbox topic unless node-id is set)");
        }
        if (clientId != null && nodeId != null && !clientId.equals(nodeId)) {
            throw new InvalidTbActorsPropertyException(PREFIX + ".consumer[client.id]", clientId,
                    "the value of " + PREFIX + ".node-id (" + nodeId + "), which is the consumer's client.id, or leave it unset");
        }
    }

    /**
     * @return this node's name: node-id, else consumer[client.id], else group-instance-id, else a random name made
     *     once
     */
    public synchronized String nodeName() {
        if (nodeId != null) {
            return nodeId;
        }
        if (consumer.get("client.id") != null) {
            return consumer.get("client.id");
        }
        if (groupInstanceId != null) {
            return groupInstanceId;
        }
        if (generatedNodeId == null) {
            generatedNodeId = "node-" + UUID.randomUUID().toString().substring(0, 13).replace("-", "");
        }
        return generatedNodeId;
    }

    /** @return whether this node's name was made up at random (no node-id, consumer[client.id] or group-instance-id) */
    public boolean isNodeNameGenerated() {
        return nodeId == null && consumer.get("client.id") == null && groupInstanceId == null;
    }

    /**
     * @param node a node's name
     * @return the node's inbox topic
     */
    public String inboxTopicOf(String node) {
        return topic + ".node." + node;
    }

    /** Kafka client settings the cluster's delivery guarantees rest on: an override may only confirm them. */
    private void validateClientOverrides() {
        forbid("consumer", consumer, "group.id", "not set here: use " + PREFIX + ".group-id");
        forbid("consumer", consumer, "group.instance.id", "not set here: use " + PREFIX + ".group-instance-id");
        requireValue("consumer", consumer, "enable.auto.commit", "false");
        forbid("consumer", consumer, "key.deserializer", "not set here: the cluster reads keys and values as it wrote them");
        forbid("consumer", consumer, "value.deserializer", "not set here: the cluster reads keys and values as it wrote them");
        requireValue("producer", producer, "acks", "all", "-1");
        requireValue("producer", producer, "enable.idempotence", "true");
        forbid("producer", producer, "transactional.id", "not set here: the cluster's producer is not transactional");
        forbid("producer", producer, "key.serializer", "not set here: encode messages with a TbActorMsgCodec bean");
        forbid("producer", producer, "value.serializer", "not set here: encode messages with a TbActorMsgCodec bean");
        forbid("producer", producer, "max.block.ms", "not set here: use " + PREFIX + ".send-timeout");
        forbid("producer", producer, "delivery.timeout.ms", "not set here: use " + PREFIX + ".send-timeout");
    }

    private static void requireValue(String client, Map<String, String> overrides, String key, String... allowed) {
        String value = overrides.get(key);
        if (value != null && !List.of(allowed).contains(value.strip().toLowerCase(Locale.ROOT))) {
            throw new InvalidTbActorsPropertyException(PREFIX + "." + client + "[" + key + "]", value,
                    String.join(" or ", allowed) + " (anything else weakens delivery), or leave it unset");
        }
    }

    private static void forbid(String client, Map<String, String> overrides, String key, String allowed) {
        if (overrides.containsKey(key)) {
            throw new InvalidTbActorsPropertyException(PREFIX + "." + client + "[" + key + "]", overrides.get(key), allowed);
        }
    }

    /** @return the dead-letter topic: the one set, or the topic's name followed by {@code .dlt} */
    public String deadLetterTopicName() {
        return deadLetterTopic != null ? deadLetterTopic : topic + ".dlt";
    }

    private void validateMessageTypes() {
        messageTypes.forEach((name, type) -> {
            if (type == null || !TbActorMsg.class.isAssignableFrom(type)) {
                throw new InvalidTbActorsPropertyException(PREFIX + ".message-types." + name, type == null ? null : type.getName(),
                        "the name of a class that implements " + TbActorMsg.class.getName());
            }
        });
    }

    private static void requireText(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidTbActorsPropertyException(PREFIX + "." + name, value, "a non-blank name");
        }
    }

    private static void atLeast(String name, int value, int minimum) {
        if (value < minimum) {
            throw new InvalidTbActorsPropertyException(PREFIX + "." + name, value, "a whole number of at least " + minimum);
        }
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new InvalidTbActorsPropertyException(PREFIX + "." + name, value, "a positive duration, such as 10s or 500ms");
        }
    }

    /**
     * @return the message types, checked to be messages
     * @throws InvalidTbActorsPropertyException naming a type that is not a message
     */
    @SuppressWarnings("unchecked")
    public Map<String, Class<? extends TbActorMsg>> messageTypesAsMessages() {
        validateMessageTypes();
        Map<String, Class<? extends TbActorMsg>> types = new LinkedHashMap<>();
        messageTypes.forEach((name, type) -> types.put(name, (Class<? extends TbActorMsg>) type));
        return types;
    }

    public String getNodeId() {
        return nodeId;
    }

    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    public String getGroupInstanceId() {
        return groupInstanceId;
    }

    public void setGroupInstanceId(String groupInstanceId) {
        this.groupInstanceId = groupInstanceId;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getGroupId() {
        return groupId;
    }

    public void setGroupId(String groupId) {
        this.groupId = groupId;
    }

    public List<String> getBootstrapServers() {
        return bootstrapServers;
    }

    public void setBootstrapServers(List<String> bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public boolean isCreateTopic() {
        return createTopic;
    }

    public void setCreateTopic(boolean createTopic) {
        this.createTopic = createTopic;
    }

    public int getPartitions() {
        return partitions;
    }

    public void setPartitions(int partitions) {
        this.partitions = partitions;
    }

    public short getReplicationFactor() {
        return replicationFactor;
    }

    public void setReplicationFactor(short replicationFactor) {
        this.replicationFactor = replicationFactor;
    }

    public LocalDelivery getLocalDelivery() {
        return localDelivery;
    }

    public void setLocalDelivery(LocalDelivery localDelivery) {
        this.localDelivery = localDelivery;
    }

    public Duration getPollTimeout() {
        return pollTimeout;
    }

    public void setPollTimeout(Duration pollTimeout) {
        this.pollTimeout = pollTimeout;
    }

    public Duration getCommitInterval() {
        return commitInterval;
    }

    public void setCommitInterval(Duration commitInterval) {
        this.commitInterval = commitInterval;
    }

    public int getMaxInFlight() {
        return maxInFlight;
    }

    public void setMaxInFlight(int maxInFlight) {
        this.maxInFlight = maxInFlight;
    }

    public Duration getRevocationTimeout() {
        return revocationTimeout;
    }

    public void setRevocationTimeout(Duration revocationTimeout) {
        this.revocationTimeout = revocationTimeout;
    }

    public int getMaxRedeliveries() {
        return maxRedeliveries;
    }

    public void setMaxRedeliveries(int maxRedeliveries) {
        this.maxRedeliveries = maxRedeliveries;
    }

    public Duration getRedeliveryDelay() {
        return redeliveryDelay;
    }

    public void setRedeliveryDelay(Duration redeliveryDelay) {
        this.redeliveryDelay = redeliveryDelay;
    }

    public Duration getMaxRedeliveryDelay() {
        return maxRedeliveryDelay;
    }

    public void setMaxRedeliveryDelay(Duration maxRedeliveryDelay) {
        this.maxRedeliveryDelay = maxRedeliveryDelay;
    }

    public Duration getProcessingTimeout() {
        return processingTimeout;
    }

    public void setProcessingTimeout(Duration processingTimeout) {
        this.processingTimeout = processingTimeout;
    }

    public String getDeadLetterTopic() {
        return deadLetterTopic;
    }

    public void setDeadLetterTopic(String deadLetterTopic) {
        this.deadLetterTopic = deadLetterTopic;
    }

    public Duration getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
        this.sendTimeout = sendTimeout;
    }

    public boolean isStartWithoutKafka() {
        return startWithoutKafka;
    }

    public void setStartWithoutKafka(boolean startWithoutKafka) {
        this.startWithoutKafka = startWithoutKafka;
    }

    public Duration getConnectivityCheckInterval() {
        return connectivityCheckInterval;
    }

    public void setConnectivityCheckInterval(Duration connectivityCheckInterval) {
        this.connectivityCheckInterval = connectivityCheckInterval;
    }

    public boolean isRefuseTrafficWhileUnreachable() {
        return refuseTrafficWhileUnreachable;
    }

    public void setRefuseTrafficWhileUnreachable(boolean refuseTrafficWhileUnreachable) {
        this.refuseTrafficWhileUnreachable = refuseTrafficWhileUnreachable;
    }

    public Map<String, Class<?>> getMessageTypes() {
        return messageTypes;
    }

    public void setMessageTypes(Map<String, Class<?>> messageTypes) {
        this.messageTypes = messageTypes;
    }

    public Map<String, String> getConsumer() {
        return consumer;
    }

    public void setConsumer(Map<String, String> consumer) {
        this.consumer = consumer;
    }

    public Map<String, String> getProducer() {
        return producer;
    }

    public void setProducer(Map<String, String> producer) {
        this.producer = producer;
    }
}
