package io.tbactors.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Creates the cluster's topic when it is missing (if allowed) and reads its partition count. */
@Slf4j
class TopicPreparer {

    /** How long start-up waits for Kafka. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final TbClusterProperties properties;
    private final Map<String, Object> adminConfig;

    TopicPreparer(TbClusterProperties properties, Map<String, Object> adminConfig) {
        this.properties = properties;
        this.adminConfig = adminConfig;
    }

    /**
     * @param timeout the longest wait for each of Kafka's answers
     * @return the topic's partition count
     * @throws IllegalStateException when the topic does not exist and may not be created, or Kafka cannot be reached
     */
    int prepare(Duration timeout) {
        long timeoutMillis = timeout.toMillis();
        String topic = properties.getTopic();
        Admin admin = Admin.create(adminConfig);
        try {
            Set<String> topics = admin.listTopics(new ListTopicsOptions().timeoutMs((int) timeoutMillis)).names()
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
            if (!topics.contains(topic)) {
                if (!properties.isCreateTopic()) {
                    throw new IllegalStateException("Topic '" + topic + "' does not exist: create it, or set "
                            + TbClusterProperties.PREFIX + ".create-topic=true");
                }
                create(admin, topic, timeoutMillis);
            }
            String deadLetterTopic = properties.deadLetterTopicName();
            if (properties.isCreateTopic() && !topics.contains(deadLetterTopic)) {
                create(admin, deadLetterTopic, timeoutMillis);
            }
            return partitionCount(admin, topic, timeoutMillis);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Could not prepare topic '" + topic + "' on " + adminConfig.get("bootstrap.servers")
                    + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while preparing topic '" + topic + "'", e);
        } finally {
            // by default a close waits for the calls still pending, up to a minute when Kafka does not answer
            admin.close(timeout);
        }
    }

    private static int partitionCount(Admin admin, String topic, long timeoutMillis)
            throws InterruptedException, TimeoutException, ExecutionException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(timeoutMillis, TimeUnit.MILLISECONDS).get(topic);
                return description.partitions().size();
            } catch (ExecutionException e) {
                // a topic just created may not be known to every broker yet
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
    }

    private void create(Admin admin, String topic, long timeoutMillis) throws InterruptedException, TimeoutException, ExecutionException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, properties.getPartitions(), properties.getReplicationFactor())))
                    .all().get(timeoutMillis, TimeUnit.MILLISECONDS);
            log.info("[{}] Created topic '{}' with {} partitions", properties.nodeName(), topic, properties.getPartitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            // another node created it first
        }
    }
}
