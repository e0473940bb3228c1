package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbStringActorId;
import io.tbactors.spring.TbRootActorCreator;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class KafkaClusterAutoConfigurationTests {

    /** A node that never reaches Kafka: it starts anyway and keeps trying in the background. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, TbClusterAutoConfiguration.class,
                    KafkaClusterAutoConfiguration.class))
            .withBean(TbRootActorCreator.class, () -> TbRootActorCreator.of(new TbStringActorId("root"), () -> new AbstractTbActor() {
                @Override
                public boolean process(TbActorMsg msg) {
                    return true;
                }
            }))
            .withPropertyValues("tb.actors.cluster.bootstrap-servers=127.0.0.1:1", "tb.actors.cluster.start-without-kafka=true",
                    "tb.actors.cluster.connectivity-check-interval=200ms", "tb.actors.cluster.node-id=node-1",
                    "tb.actors.cluster.create-topic=false");

    @Test
    void withClusteringEnabledTheNodeIsAMemberOfTheGroupAndRoutesThroughKafka() {
        runner.withPropertyValues("tb.actors.cluster.enabled=true").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(KafkaClusterMember.class).hasSingleBean(KafkaTbClusterRouter.class)
                    .hasSingleBean(KafkaTbNodeChannel.class).hasSingleBean(ClusterConnectivity.class)
                    .hasSingleBean(KafkaClientConfigs.class).doesNotHaveBean(LocalTbClusterRouter.class)
                    .doesNotHaveBean(LocalTbNodeChannel.class);
            assertThat(context.getBean(TbClusterRouter.class)).isInstanceOf(KafkaTbClusterRouter.class);
            assertThat(context.getBean(TbNodeChannel.class).getNodeId()).isEqualTo("node-1");
            assertThat(context.getBean(KafkaClientConfigs.class).consumer()).containsEntry("bootstrap.servers", "127.0.0.1:1");
        });
    }

    @Test
    void withClusteringOffNothingOfItIsConfigured() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(KafkaClusterMember.class)
                .doesNotHaveBean(KafkaClientConfigs.class).hasSingleBean(LocalTbClusterRouter.class));
    }

    @Test
    void anApplicationRouterReplacesTheKafkaOne() {
        TbClusterRouter own = new TbClusterRouter() {
            @Override
            public CompletableFuture<Void> send(String entityType, UUID entityId, TbActorMsg msg) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public CompletableFuture<Void> request(String entityType, UUID entityId, TbActorMsg msg, Duration timeout) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public boolean isLocal(UUID entityId) {
                return true;
            }
        };
        runner.withPropertyValues("tb.actors.cluster.enabled=true").withBean(TbClusterRouter.class, () -> own).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(KafkaTbClusterRouter.class).hasSingleBean(KafkaClusterMember.class)
                        .getBean(TbClusterRouter.class).isSameAs(own));
    }

    @Test
    void withoutTheRoutingAutoConfigurationNothingIsConfigured() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KafkaClusterAutoConfiguration.class))
                .withPropertyValues("tb.actors.cluster.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(KafkaClusterMember.class));
    }
}
