package io.tbactors.kafka.it;

import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TestMembers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes a node whose consumer, while {@link #SILENT} is set, reports that it has sent no heartbeat for a long time,
 * as it would while cut off from the group's coordinator: the node fences itself although its membership is intact.
 */
@Configuration(proxyBeanMethods = false)
public class NodeWithSilencedHeartbeat {

    /** Whether the heartbeat looks silent; one node per test uses this configuration. */
    static final AtomicBoolean SILENT = new AtomicBoolean();

    private static final MetricName LAST_HEARTBEAT = new MetricName("last-heartbeat-seconds-ago", "consumer-coordinator-metrics",
            "", Map.of());

    @Bean
    KafkaClusterMember tbKafkaClusterMember(TestMembers members) {
        return members.member(NodeWithSilencedHeartbeat::silenceable);
    }

    @SuppressWarnings("unchecked")
    private static Consumer<String, byte[]> silenceable(Consumer<String, byte[]> consumer) {
        return (Consumer<String, byte[]>) Proxy.newProxyInstance(Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class},
                (proxy, method, args) -> {
                    if (SILENT.get() && method.getName().equals("metrics")) {
                        return Map.of(LAST_HEARTBEAT, new Metric() {
                            @Override
                            public MetricName metricName() {
                                return LAST_HEARTBEAT;
                            }

                            @Override
                            public Object metricValue() {
                                return 1_000_000.0;
                            }
                        });
                    }
                    try {
                        return method.invoke(consumer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
