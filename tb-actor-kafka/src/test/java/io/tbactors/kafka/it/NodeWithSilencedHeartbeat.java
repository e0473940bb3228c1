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
 * Makes a node whose consumer, while {@link #SILENT} is set, reports no heartbeat answered by the coordinator, as while
 * cut off from it: the node fences itself once it has had no commit or rejoin either for the session timeout less a
 * heartbeat interval and a second, although its membership is intact.
 */
@Configuration(proxyBeanMethods = false)
public class NodeWithSilencedHeartbeat {

    /** Whether the heartbeat looks silent; one node per test uses this configuration. */
    static final AtomicBoolean SILENT = new AtomicBoolean();

    private static final MetricName HEARTBEATS_ANSWERED = new MetricName("heartbeat-total", "consumer-coordinator-metrics", "",
            Map.of());

    @Bean
    KafkaClusterMember tbKafkaClusterMember(TestMembers members) {
        return members.member(NodeWithSilencedHeartbeat::silenceable);
    }

    @SuppressWarnings("unchecked")
    private static Consumer<String, byte[]> silenceable(Consumer<String, byte[]> consumer) {
        return (Consumer<String, byte[]>) Proxy.newProxyInstance(Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class},
                (proxy, method, args) -> {
                    if (SILENT.get() && method.getName().equals("metrics")) {
                        return Map.of(HEARTBEATS_ANSWERED, new Metric() {
                            @Override
                            public MetricName metricName() {
                                return HEARTBEATS_ANSWERED;
                            }

                            @Override
                            public Object metricValue() {
                                return 0.0;
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
