package io.tbactors.kafka.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** An integration test class with one embedded KRaft broker for all its tests, started first and stopped last. */
abstract class BrokerPerClass {

    /** The class's broker. */
    static EmbeddedKafkaKraftBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = TestBrokers.start();
    }

    @AfterAll
    static void stopBroker() {
        TestBrokers.stop(broker);
    }
}
