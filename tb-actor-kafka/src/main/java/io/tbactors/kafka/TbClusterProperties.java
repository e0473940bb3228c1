package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import lombok.AccessLevel;
import lombok.Getter;
import lombok.Setter;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Scale-out over Kafka, under {@code tb.actors.cluster}: every node of the application joins one consumer group on
 * one topic; each node owns some of its partitions and the entities whose ids hash to them.
 *
 * <p>The class validates itself, as the starter's {@code TbActorsProperties} does: Spring Boot's binder calls
 * {@link #validate} once the values are bound, and a bad value fails start-up with Boot's own report, which names the
 * property, the value, where it was set and what is allowed. The cluster's settings are checked only while
 * {@code enabled} is true; the message types always, since the codec uses them either way.
 */
@Getter
@Setter
@ConfigurationProperties(prefix = TbClusterProperties.PREFIX)
public class TbClusterProperties implements Validator {

    /** Prefix of the cluster's properties. */
    public static final String PREFIX = "tb.actors.cluster";

    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private static final String INVALID = "tb.actors.cluster.invalid";

    private static final String POSITIVE = "allowed is a positive duration, such as 10s or 500ms";

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

    @Getter(AccessLevel.NONE)
    @Setter(AccessLevel.NONE)
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

    @Override
    public boolean supports(Class<?> type) {
        return type == TbClusterProperties.class;
    }

    /**
     * Checks the values once they are bound: each rejected field names its property and what is allowed. The
     * cluster's own settings only while clustering is enabled, the message types always.
     */
    @Override
    public void validate(Object target, Errors errors) {
        if (!(target instanceof TbClusterProperties p)) {
            return;
        }
        p.validateMessageTypes(errors);
        if (!p.enabled) {
            return;
        }
        requireText(errors, "topic", p.topic);
        requireText(errors, "groupId", p.groupId);
        atLeast(errors, "partitions", p.partitions, 1);
        atLeast(errors, "replicationFactor", p.replicationFactor, 1);
        atLeast(errors, "maxInFlight", p.maxInFlight, 1);
        atLeast(errors, "maxRedeliveries", p.maxRedeliveries, 0);
        positive(errors, "pollTimeout", p.pollTimeout);
        positive(errors, "commitInterval", p.commitInterval);
        positive(errors, "revocationTimeout", p.revocationTimeout);
        positive(errors, "redeliveryDelay", p.redeliveryDelay);
        positive(errors, "maxRedeliveryDelay", p.maxRedeliveryDelay);
        positive(errors, "processingTimeout", p.processingTimeout);
        positive(errors, "sendTimeout", p.sendTimeout);
        positive(errors, "connectivityCheckInterval", p.connectivityCheckInterval);
        if (p.deadLetterTopic != null) {
            requireText(errors, "deadLetterTopic", p.deadLetterTopic);
            if (p.deadLetterTopic.equals(p.topic)) {
                errors.rejectValue("deadLetterTopic", INVALID, "allowed is a topic other than " + PREFIX + ".topic");
            }
        }
        p.validateClientOverrides(errors);
        p.validateNodeNames(errors);
    }

    private void validateNodeNames(Errors errors) {
        if (nodeId != null && !NODE_NAME.matcher(nodeId).matches()) {
            errors.rejectValue("nodeId", INVALID, "allowed is letters, digits, '.', '_' and '-' only (it names a topic), "
                    + "at most 200 characters, or leave it unset");
        }
        if (groupInstanceId != null && !NODE_NAME.matcher(groupInstanceId).matches()) {
            errors.rejectValue("groupInstanceId", INVALID,
                    "allowed is letters, digits, '.', '_' and '-' only, at most 200 characters, or leave it unset");
        }
        String clientId = consumer.get("client.id");
        if (clientId != null && !NODE_NAME.matcher(clientId).matches()) {
            errors.rejectValue("consumer[client.id]", INVALID,
                    "allowed is letters, digits, '.', '_' and '-' only (it names this node's inbox topic unless node-id is set)");
        } else if (clientId != null && nodeId != null && !clientId.equals(nodeId)) {
            errors.rejectValue("consumer[client.id]", INVALID, "allowed is the value of " + PREFIX + ".node-id (" + nodeId
                    + "), which is the consumer's client.id, or leave it unset");
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
    private void validateClientOverrides(Errors errors) {
        forbid(errors, "consumer", consumer, "group.id", "not set here: use " + PREFIX + ".group-id");
        forbid(errors, "consumer", consumer, "group.instance.id", "not set here: use " + PREFIX + ".group-instance-id");
        requireValue(errors, "consumer", consumer, "enable.auto.commit", "false");
        forbid(errors, "consumer", consumer, "key.deserializer", "not set here: the cluster reads keys and values as it wrote them");
        forbid(errors, "consumer", consumer, "value.deserializer", "not set here: the cluster reads keys and values as it wrote them");
        requireValue(errors, "producer", producer, "acks", "all", "-1");
        requireValue(errors, "producer", producer, "enable.idempotence", "true");
        forbid(errors, "producer", producer, "transactional.id", "not set here: the cluster's producer is not transactional");
        forbid(errors, "producer", producer, "key.serializer", "not set here: encode messages with a TbActorMsgCodec bean");
        forbid(errors, "producer", producer, "value.serializer", "not set here: encode messages with a TbActorMsgCodec bean");
        forbid(errors, "producer", producer, "max.block.ms", "not set here: use " + PREFIX + ".send-timeout");
        forbid(errors, "producer", producer, "delivery.timeout.ms", "not set here: use " + PREFIX + ".send-timeout");
    }

    private static void requireValue(Errors errors, String client, Map<String, String> overrides, String key, String... allowed) {
        String value = overrides.get(key);
        if (value != null && !List.of(allowed).contains(value.strip().toLowerCase(Locale.ROOT))) {
            errors.rejectValue(client + "[" + key + "]", INVALID, "allowed is " + String.join(" or ", allowed)
                    + " (anything else weakens delivery), or leave it unset");
        }
    }

    private static void forbid(Errors errors, String client, Map<String, String> overrides, String key, String allowed) {
        if (overrides.containsKey(key)) {
            errors.rejectValue(client + "[" + key + "]", INVALID, "allowed is " + allowed);
        }
    }

    /** @return the dead-letter topic: the one set, or the topic's name followed by {@code .dlt} */
    public String deadLetterTopicName() {
        return deadLetterTopic != null ? deadLetterTopic : topic + ".dlt";
    }

    private void validateMessageTypes(Errors errors) {
        messageTypes.forEach((name, type) -> {
            if (type == null || !TbActorMsg.class.isAssignableFrom(type)) {
                errors.rejectValue("messageTypes[" + name + "]", INVALID,
                        "allowed is the name of a class that implements " + TbActorMsg.class.getName());
            }
        });
    }

    private static void requireText(Errors errors, String field, String value) {
        if (value == null || value.isBlank()) {
            errors.rejectValue(field, INVALID, "allowed is a non-blank name");
        }
    }

    private static void atLeast(Errors errors, String field, int value, int minimum) {
        if (value < minimum) {
            errors.rejectValue(field, INVALID, "allowed is a whole number of at least " + minimum);
        }
    }

    private static void positive(Errors errors, String field, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            errors.rejectValue(field, INVALID, POSITIVE);
        }
    }

    /**
     * @return the message types, each a message type (the binder's validation refused any other)
     * @throws IllegalStateException naming a type that is not a message, when these properties were not bound by Spring
     */
    @SuppressWarnings("unchecked")
    public Map<String, Class<? extends TbActorMsg>> messageTypesAsMessages() {
        Map<String, Class<? extends TbActorMsg>> types = new LinkedHashMap<>();
        messageTypes.forEach((name, type) -> {
            if (type == null || !TbActorMsg.class.isAssignableFrom(type)) {
                throw new IllegalStateException(PREFIX + ".message-types." + name + " is " + type
                        + ": allowed is the name of a class that implements " + TbActorMsg.class.getName());
            }
            types.put(name, (Class<? extends TbActorMsg>) type);
        });
        return types;
    }
}
