package io.tbactors.sample.iot.e2e;

import java.util.Set;

import io.tbactors.kafka.KafkaClusterMember;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** Tests of the {@code cluster} profile: one embedded KRaft broker per test class, topics of {@link #PARTITIONS}. */
abstract class KafkaClusterTest {

    static final int PARTITIONS = 6;

    static EmbeddedKafkaKraftBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS);
        broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
        broker.afterPropertiesSet();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.destroy();
        }
    }

    static Set<Integer> owned(ConfigurableApplicationContext node) {
        return node.getBean(KafkaClusterMember.class).getOwnedPartitions();
    }
}
