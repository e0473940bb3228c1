package io.tbactors.kafka.it;

import java.util.Map;
import kafka.server.BrokerServer;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** The embedded KRaft broker of the integration tests, and what they ask it. */
final class TestBrokers {

    private TestBrokers() {
    }

    /** @return a started single-node broker that lets a group start at once */
    static EmbeddedKafkaKraftBroker start() {
        return start(new EmbeddedKafkaKraftBroker(1, ClusterNode.PARTITIONS));
    }

    private static EmbeddedKafkaKraftBroker start(EmbeddedKafkaKraftBroker broker) {
        broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
        broker.afterPropertiesSet();
        return broker;
    }

    /**
     * Stops the broker of a started cluster (its controller goes on) and waits until it has stopped; started again
     * with {@link BrokerServer#startup()}, it listens where it did.
     *
     * @param broker the embedded cluster
     * @return its broker, stopped
     */
    static BrokerServer stopBrokerServer(EmbeddedKafkaKraftBroker broker) {
        BrokerServer server = broker.getCluster().brokers().values().iterator().next();
        server.shutdown();
        server.awaitShutdown();
        return server;
    }

    /** @param broker a broker, or null when it never started */
    static void stop(EmbeddedKafkaKraftBroker broker) {
        if (broker != null) {
            broker.destroy();
        }
    }

    /**
     * @param topic the test's topic (its group is {@code group-<topic>})
     * @param tp a partition
     * @return the group's committed offset of the partition, or -1 when none (or the broker did not answer)
     */
    static long committedOffset(EmbeddedKafkaKraftBroker broker, String topic, TopicPartition tp) {
        return broker.doWithAdminFunction(admin -> {
            try {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets("group-" + topic)
                        .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                OffsetAndMetadata offset = offsets.get(tp);
                return offset == null ? -1L : offset.offset();
            } catch (Exception e) {
                return -1L;
            }
        });
    }

    /**
     * @param tp a partition
     * @return its end offset, or -2 when the broker did not answer
     */
    static long endOffset(EmbeddedKafkaKraftBroker broker, TopicPartition tp) {
        return broker.doWithAdminFunction(admin -> {
            try {
                return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get(10, TimeUnit.SECONDS).offset();
            } catch (Exception e) {
                return -2L;
            }
        });
    }
}
