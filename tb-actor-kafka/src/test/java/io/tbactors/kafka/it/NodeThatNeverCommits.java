package io.tbactors.kafka.it;

import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TestMembers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.kafka.clients.consumer.Consumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes a node whose offset commits never reach Kafka, as if it died after processing and before any commit: the
 * node that takes its partitions over reads them again from the start.
 */
@Configuration(proxyBeanMethods = false)
public class NodeThatNeverCommits {

    @Bean
    KafkaClusterMember tbKafkaClusterMember(TestMembers members) {
        return members.member(NodeThatNeverCommits::droppingCommits);
    }

    @SuppressWarnings("unchecked")
    private static Consumer<String, byte[]> droppingCommits(Consumer<String, byte[]> consumer) {
        return (Consumer<String, byte[]>) Proxy.newProxyInstance(Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class},
                (proxy, method, args) -> {
                    if (method.getName().startsWith("commit")) {
                        return null;
                    }
                    try {
                        return method.invoke(consumer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
