package io.tbactors.kafka;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Creates the cluster's topic when it is missing (if allowed) and reads its partition count. */
@Slf4j
class TopicPreparer {

    private static final long TIMEOUT_SECONDS = 30;

    private final TbClusterProperties properties;
    private final Map<String, Object> adminConfig;

    TopicPreparer(TbClusterProperties properties, Map<String, Object> adminConfig) {
        this.properties = properties;
        this.adminConfig = adminConfig;
    }

    /**
     * @return the topic's partition count
     * @throws IllegalStateException when the topic does not exist and may not be created, or Kafka cannot be reached
     */
    int prepare() {
        String topic = properties.getTopic();
        try (Admin admin = Admin.create(adminConfig)) {
            Set<String> topics = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!topics.contains(topic)) {
                if (!properties.isCreateTopic()) {
                    throw new IllegalStateException("Topic '" + topic + "' does not exist: create it, or set "
                            + TbClusterProperties.PREFIX + ".create-topic=true");
                }
                create(admin, topic);
            }
            String deadLetterTopic = properties.deadLetterTopicName();
            if (properties.isCreateTopic() && !topics.contains(deadLetterTopic)) {
                create(admin, deadLetterTopic);
            }
            return partitionCount(admin, topic);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Could not prepare topic '" + topic + "' on " + adminConfig.get("bootstrap.servers")
                    + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while preparing topic '" + topic + "'", e);
        }
    }

    private static int partitionCount(Admin admin, String topic) throws InterruptedException, TimeoutException, ExecutionException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
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

    private void create(Admin admin, String topic) throws InterruptedException, TimeoutException, ExecutionException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, properties.getPartitions(), properties.getReplicationFactor())))
                    .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            log.info("Created topic '{}' with {} partitions", topic, properties.getPartitions());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
            // another node created it first
        }
    }
}
