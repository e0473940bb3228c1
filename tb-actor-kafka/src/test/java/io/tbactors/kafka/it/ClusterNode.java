package io.tbactors.kafka.it;

import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.kafka.EntityPartitioner;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbClusterMemberState;
import io.tbactors.kafka.TbClusterRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** One application node of a test: its own Spring context, joined to the test's topic and group. */
public final class ClusterNode implements AutoCloseable {

    /** Partitions of the test topics: enough to split, few enough for fast rebalances. */
    public static final int PARTITIONS = 6;

    private final String name;
    private final ConfigurableApplicationContext context;

    private ClusterNode(String name, ConfigurableApplicationContext context) {
        this.name = name;
        this.context = context;
    }

    /**
     * Starts a node.
     *
     * @param name the node's name, recorded with each reading it stores
     * @param brokers the broker list
     * @param topic the topic of the test
     * @param store the readings store shared by the nodes of the test
     * @param extraProperties more properties, {@code key=value}
     * @return the started node
     */
    public static ClusterNode start(String name, String brokers, String topic, ReadingStore store, String... extraProperties) {
        return start(name, brokers, topic, store, new Class<?>[0], extraProperties);
    }

    /**
     * Starts a node with more configuration.
     *
     * @param name the node's name, recorded with each reading it stores
     * @param brokers the broker list
     * @param topic the topic of the test
     * @param store the readings store shared by the nodes of the test
     * @param extraSources more configuration classes
     * @param extraProperties more properties, {@code key=value}
     * @return the started node
     */
    public static ClusterNode start(String name, String brokers, String topic, ReadingStore store, Class<?>[] extraSources,
                                    String... extraProperties) {
        List<String> properties = new ArrayList<>(List.of(
                "test.node=" + name,
                "spring.application.name=node-" + name,
                "spring.jmx.enabled=false",
                "tb.actors.cluster.enabled=true",
                "tb.actors.cluster.topic=" + topic,
                "tb.actors.cluster.group-id=group-" + topic,
                "tb.actors.cluster.partitions=" + PARTITIONS,
                "tb.actors.cluster.bootstrap-servers=" + brokers,
                "tb.actors.cluster.revocation-timeout=5s",
                "tb.actors.cluster.message-types.reading=" + Reading.class.getName(),
                "tb.actors.cluster.consumer[session.timeout.ms]=6000",
                "tb.actors.cluster.consumer[heartbeat.interval.ms]=500",
                "tb.actors.cluster.consumer[client.id]=" + topic + "-" + name,
                "tb.actors.cluster.producer[linger.ms]=1",
                "tb.actors.cluster.producer[client.id]=" + topic + "-" + name + "-producer",
                "tb.actors.shutdown-timeout=5s"));
        properties.addAll(List.of(extraProperties));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ClusterTestApp.class).sources(extraSources)
                .web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new))
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("readingStore", store))
                .run();
        return new ClusterNode(name, context);
    }

    /** @return the node's name */
    public String name() {
        return name;
    }

    /** @return the node's router */
    public TbClusterRouter router() {
        return context.getBean(TbClusterRouter.class);
    }

    /** @return the node's cluster membership */
    public KafkaClusterMember member() {
        return context.getBean(KafkaClusterMember.class);
    }

    /** @return the node's actor system */
    public DefaultTbActorSystem actors() {
        return context.getBean(DefaultTbActorSystem.class);
    }

    /** @return the node's meter registry */
    public MeterRegistry meters() {
        return context.getBean(MeterRegistry.class);
    }

    /** @return the node's context */
    public ConfigurableApplicationContext context() {
        return context;
    }

    /** @return whether the node is an active member of the group */
    public boolean isActive() {
        return context.isActive() && member().getState() == TbClusterMemberState.ACTIVE;
    }

    /**
     * @param device a device id
     * @return whether this node owns the device's partition
     */
    public boolean owns(UUID device) {
        return member().getOwnedPartitions().contains(EntityPartitioner.partition(device, PARTITIONS));
    }

    @Override
    public void close() {
        if (context.isActive()) {
            context.close();
        }
    }
}
