package io.tbactors.kafka.it;

import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TestMembers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes a node whose producer, while {@link #FAILING} is set, fails every ownership marker it is asked to write, as
 * Kafka would when a partition's leader does not answer in time. Its other writes go through.
 */
@Configuration(proxyBeanMethods = false)
public class NodeWithFailingMarkers {

    /** Whether markers fail; one node per test uses this configuration. */
    static final AtomicBoolean FAILING = new AtomicBoolean();

    @Bean
    KafkaClusterMember tbKafkaClusterMember(TestMembers members) {
        return members.member(consumer -> consumer, NodeWithFailingMarkers::failingMarkers);
    }

    @SuppressWarnings("unchecked")
    private static Producer<String, byte[]> failingMarkers(Producer<String, byte[]> producer) {
        return (Producer<String, byte[]>) Proxy.newProxyInstance(Producer.class.getClassLoader(), new Class<?>[] {Producer.class},
                (proxy, method, args) -> {
                    if (FAILING.get() && method.getName().equals("send") && args[0] instanceof ProducerRecord<?, ?> record
                            && record.headers().lastHeader(KafkaClusterMember.OWNERSHIP_MARKER_HEADER) != null) {
                        TimeoutException failure = new TimeoutException("the test fails ownership markers");
                        if (args.length > 1 && args[1] instanceof Callback callback) {
                            callback.onCompletion(null, failure);
                        }
                        return CompletableFuture.failedFuture(failure);
                    }
                    try {
                        return method.invoke(producer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
