package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.kafka.codec.JsonTbActorMsgCodec;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.TbActorsFailureAnalyzer;
import io.tbactors.spring.TbRootActorCreator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.validation.BeanPropertyBindingResult;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;
import tools.jackson.databind.json.JsonMapper;

@ExtendWith(OutputCaptureExtension.class)
class TbClusterAutoConfigurationTests {

    @SpringBootConfiguration
    @ImportAutoConfiguration({TbActorsAutoConfiguration.class, TbClusterAutoConfiguration.class})
    static class App {
    }

    /** What the test root does with each envelope. */
    enum Behaviour { PROCESS, FAIL, STOP_ONCE, STOP_ALWAYS, LATER, SUPERSEDED }

    record Ping(int n) implements TbActorMsg {
    }

    static final class RecordingRoot extends AbstractTbActor {

        private final Behaviour behaviour;
        private final List<TbEntityMsg> seen;
        private final AtomicInteger attempts;
        private final CompletableFuture<String> work;

        RecordingRoot(Behaviour behaviour, List<TbEntityMsg> seen, AtomicInteger attempts, CompletableFuture<String> work) {
            this.behaviour = behaviour;
            this.seen = seen;
            this.attempts = attempts;
            this.work = work;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            if (!(msg instanceof TbEntityMsg entityMsg)) {
                return false;
            }
            seen.add(entityMsg);
            int attempt = attempts.incrementAndGet();
            switch (behaviour) {
                case PROCESS -> entityMsg.onProcessed();
                case FAIL -> entityMsg.onFailure(new IllegalStateException("broken device"));
                case LATER -> entityMsg.completeWhen(work.thenApply(String::strip));
                case SUPERSEDED -> entityMsg.onSuperseded();
                case STOP_ONCE -> {
                    if (attempt == 1) {
                        entityMsg.onTbActorStopped(TbActorStopReason.IDLE);
                    } else {
                        entityMsg.onProcessed();
                    }
                }
                default -> entityMsg.onTbActorStopped(TbActorStopReason.STOPPED);
            }
            return true;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RootConfiguration {

        final List<TbEntityMsg> seen = new CopyOnWriteArrayList<>();
        final AtomicInteger attempts = new AtomicInteger();
        final CompletableFuture<String> work = new CompletableFuture<>();

        @Bean
        CompletableFuture<String> work() {
            return work;
        }

        @Bean
        List<TbEntityMsg> seenMessages() {
            return seen;
        }

        @Bean
        AtomicInteger attempts() {
            return attempts;
        }

        @Bean
        TbRootActorCreator root(Environment environment) {
            Behaviour behaviour = Behaviour.valueOf(environment.getProperty("test.behaviour", "PROCESS"));
            return TbRootActorCreator.of(new TbStringActorId("root"), () -> new RecordingRoot(behaviour, seen, attempts, work));
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, TbClusterAutoConfiguration.class))
            .withUserConfiguration(RootConfiguration.class)
            .withPropertyValues("tb.actors.cluster.redelivery-delay=10ms");

    @Test
    void withoutClusteringEveryMessageIsToldLocallyAndTheSendCompletesOnceProcessed() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(LocalTbClusterRouter.class).doesNotHaveBean(KafkaClusterMember.class);
            assertThat(context).hasSingleBean(JsonTbActorMsgCodec.class);
            TbClusterRouter router = context.getBean(TbClusterRouter.class);
            UUID device = UUID.randomUUID();

            router.send("DEVICE", device, new Ping(1)).get(10, TimeUnit.SECONDS);

            @SuppressWarnings("unchecked")
            List<TbEntityMsg> seen = context.getBean("seenMessages", List.class);
            assertThat(seen).singleElement().satisfies(msg -> {
                assertThat(msg.getEntityId()).isEqualTo(device);
                assertThat(msg.getActorId().toString()).isEqualTo("DEVICE|" + device);
                assertThat(msg.getPayload()).isEqualTo(new Ping(1));
                assertThat(msg.getPartition()).isEqualTo(-1);
                assertThat(msg.isRemote()).isFalse();
                assertThat(msg.isCompleted()).isTrue();
                assertThat(msg.isObsolete()).isFalse();
                assertThat(msg.discardIfObsolete()).isFalse();
            });
            assertThat(router.isLocal(device)).isTrue();
        });
    }

    @Test
    void aFailureReportedByTheActorFailsTheSendWithItsCause() {
        runner.withPropertyValues("test.behaviour=FAIL").run(context -> {
            CompletableFuture<Void> sent = context.getBean(TbClusterRouter.class).send("DEVICE", UUID.randomUUID(), new Ping(1));
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(TbClusterDeliveryException.class).hasMessageContaining("broken device")
                    .satisfies(e -> assertThat(((TbClusterDeliveryException) e).getReason()).isNull());
        });
    }

    @Test
    void anEnvelopeCompletedByAsynchronousWorkCompletesTheSendOnlyWhenTheWorkIsDone() {
        runner.withPropertyValues("test.behaviour=LATER").run(context -> {
            CompletableFuture<Void> sent = context.getBean(TbClusterRouter.class).send("DEVICE", UUID.randomUUID(), new Ping(1));
            @SuppressWarnings("unchecked")
            List<TbEntityMsg> seen = context.getBean("seenMessages", List.class);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
            assertThat(sent).as("the actor returned, the work goes on").isNotDone();
            assertThat(seen.get(0).isCompleted()).isFalse();

            context.getBean("work", CompletableFuture.class).complete(" saved ");

            sent.get(10, TimeUnit.SECONDS);
            assertThat(seen.get(0).isCompleted()).isTrue();
        });
    }

    @Test
    void anEnvelopeWhoseAsynchronousWorkFailsFailsTheSendWithTheWorksCause() {
        runner.withPropertyValues("test.behaviour=LATER").run(context -> {
            CompletableFuture<Void> sent = context.getBean(TbClusterRouter.class).send("DEVICE", UUID.randomUUID(), new Ping(1));
            context.getBean("work", CompletableFuture.class).completeExceptionally(new IllegalStateException("disk full"));
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(TbClusterDeliveryException.class).hasMessageContaining("disk full")
                    .hasRootCauseInstanceOf(IllegalStateException.class);
        });
    }

    @Test
    void aMessageThatComesBackUnprocessedIsDeliveredAgain() {
        runner.withPropertyValues("test.behaviour=STOP_ONCE").run(context -> {
            context.getBean(TbClusterRouter.class).send("DEVICE", UUID.randomUUID(), new Ping(1)).get(10, TimeUnit.SECONDS);
            assertThat(context.getBean("attempts", AtomicInteger.class)).hasValue(2);
            assertThat(context.getBean(EntityDeliveries.class).getRedeliveredCount()).isEqualTo(1);
        });
    }

    @Test
    void aMessageThatKeepsComingBackFailsTheSendAfterTheLastRedelivery() {
        runner.withPropertyValues("test.behaviour=STOP_ALWAYS", "tb.actors.cluster.max-redeliveries=2").run(context -> {
            CompletableFuture<Void> sent = context.getBean(TbClusterRouter.class).send("DEVICE", UUID.randomUUID(), new Ping(1));
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(TbClusterDeliveryException.class)
                    .satisfies(e -> assertThat(((TbClusterDeliveryException) e).getReason()).isEqualTo(TbActorStopReason.STOPPED));
            assertThat(context.getBean("attempts", AtomicInteger.class)).hasValue(3);
            assertThat(context.getBean(EntityDeliveries.class).getNotProcessedCount()).isEqualTo(1);
        });
    }

    @Test
    void aMessageWhoseWriteWasSupersededIsNeitherDeliveredAgainNorRetried() {
        runner.withPropertyValues("test.behaviour=SUPERSEDED", "tb.actors.cluster.max-redeliveries=2").run(context -> {
            CompletableFuture<Void> sent = context.getBean(TbClusterRouter.class).send("DEVICE", UUID.randomUUID(), new Ping(1));
            // without clustering there is no owner to send it to: the send fails, after one delivery
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(TbClusterDeliveryException.class)
                    .satisfies(e -> assertThat(((TbClusterDeliveryException) e).getReason()).isEqualTo(TbActorStopReason.STOPPED));
            EntityDeliveries deliveries = context.getBean(EntityDeliveries.class);
            assertThat(context.getBean("attempts", AtomicInteger.class)).hasValue(1);
            assertThat(deliveries.getRedeliveredCount()).isZero();
            assertThat(deliveries.getSupersededCount()).isEqualTo(1);
            assertThat(deliveries.getNotProcessedCount()).as("not counted as given up after redeliveries").isZero();
        });
    }

    @Test
    void invalidSendArgumentsAreRefusedAtOnce() {
        runner.run(context -> {
            TbClusterRouter router = context.getBean(TbClusterRouter.class);
            UUID device = UUID.randomUUID();
            Ping ping = new Ping(1);
            assertThatThrownBy(() -> router.send("DEV|ICE", device, ping)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> router.send("DEVICE", null, ping)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> router.send("DEVICE", device, null)).isInstanceOf(NullPointerException.class);
        });
    }

    @Test
    void anApplicationCodecReplacesTheJsonOne() {
        TbActorMsgCodec own = new JsonTbActorMsgCodec(JsonMapper.builder().build(), Map.of());
        runner.withBean(TbActorMsgCodec.class, () -> own).run(context ->
                assertThat(context.getBean(TbActorMsgCodec.class)).isSameAs(own));
    }

    @Test
    void withoutSpringKafkaNothingIsConfigured() {
        runner.withClassLoader(new FilteredClassLoader(KafkaTemplate.class)).run(context ->
                assertThat(context).doesNotHaveBean(TbClusterRouter.class).doesNotHaveBean(EntityDeliveries.class));
    }

    @Test
    void withoutTheActorsAutoConfigurationNothingIsConfigured() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TbClusterAutoConfiguration.class)).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(TbClusterRouter.class));
    }

    @ParameterizedTest(name = "tb.actors.cluster.{0}={2} fails binding as field {1}, allowing {4}")
    @CsvSource(delimiter = ';', value = {
        "partitions; partitions; 0; 0; a whole number of at least 1",
        "replication-factor; replicationFactor; 0; 0; a whole number of at least 1",
        "max-in-flight; maxInFlight; 0; 0; a whole number of at least 1",
        "max-redeliveries; maxRedeliveries; -1; -1; a whole number of at least 0",
        "topic; topic; ' '; ' '; a non-blank name",
        "group-id; groupId; ' '; ' '; a non-blank name",
        "poll-timeout; pollTimeout; 0s; PT0S; a positive duration",
        "commit-interval; commitInterval; -1s; PT-1S; a positive duration",
        "revocation-timeout; revocationTimeout; 0ms; PT0S; a positive duration",
        "redelivery-delay; redeliveryDelay; 0ms; PT0S; a positive duration",
        "message-types.ping; messageTypes[ping]; java.lang.String; java.lang.String; a class that implements io.tbactors.api.TbActorMsg",
        "max-redelivery-delay; maxRedeliveryDelay; 0s; PT0S; a positive duration",
        "processing-timeout; processingTimeout; 0s; PT0S; a positive duration",
        "send-timeout; sendTimeout; -5s; PT-5S; a positive duration",
        "connectivity-check-interval; connectivityCheckInterval; 0s; PT0S; a positive duration",
        "dead-letter-topic; deadLetterTopic; tb-actors.entities; tb-actors.entities; a topic other than tb.actors.cluster.topic",
        "consumer[enable.auto.commit]; consumer[enable.auto.commit]; true; true; false (anything else weakens delivery), or leave it unset",
        "consumer[group.id]; consumer[group.id]; other; other; use tb.actors.cluster.group-id",
        "consumer[value.deserializer]; consumer[value.deserializer]; x.Y; x.Y; not set here",
        "producer[acks]; producer[acks]; 1; 1; all or -1 (anything else weakens delivery), or leave it unset",
        "producer[enable.idempotence]; producer[enable.idempotence]; false; false; true (anything else weakens delivery)",
        "producer[transactional.id]; producer[transactional.id]; tx; tx; not set here",
        "producer[delivery.timeout.ms]; producer[delivery.timeout.ms]; 120000; 120000; use tb.actors.cluster.send-timeout",
        "producer[max.block.ms]; producer[max.block.ms]; 60000; 60000; use tb.actors.cluster.send-timeout",
        "consumer[group.instance.id]; consumer[group.instance.id]; pod-1; pod-1; use tb.actors.cluster.group-instance-id",
        "node-id; nodeId; node/1; node/1; letters, digits, '.', '_' and '-' only (it names a topic)",
        "group-instance-id; groupInstanceId; pod 1; pod 1; letters, digits, '.', '_' and '-' only"
    })
    void anInvalidClusterPropertyFailsBindingNamingThePropertyAndWhatIsAllowed(String name, String field, String value,
                                                                               String shown, String allowed) {
        String property = "tb.actors.cluster." + name;
        runner.withPropertyValues("tb.actors.cluster.enabled=true", property + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context).getFailure().rootCause().isInstanceOf(BindValidationException.class);
            BindValidationException failure = (BindValidationException) NestedExceptionUtils.getRootCause(context.getStartupFailure());
            assertThat(failure.getValidationErrors().getName().toString()).isEqualTo("tb.actors.cluster");
            assertThat(failure.getValidationErrors().getAllErrors()).singleElement().isInstanceOfSatisfying(FieldError.class, error -> {
                assertThat(error.getField()).isEqualTo(field);
                assertThat(String.valueOf(error.getRejectedValue())).contains(shown.strip());
                assertThat(error.getDefaultMessage()).startsWith("allowed is ").contains(allowed);
                if (!field.contains("[")) {
                    assertThat(Origin.from(error)).as("origin of %s", property).isNotNull();
                }
            });
            assertThat(failure.getValidationErrors().getBoundProperties()).anySatisfy(bound ->
                    assertThat(bound.getName().toString()).isEqualTo(property));
            assertThat(new TbActorsFailureAnalyzer().analyze(context.getStartupFailure()))
                    .as("left to Spring Boot's validation report, as the starter's properties are").isNull();
        });
    }

    @Test
    void messageTypesAreCheckedEvenWhileClusteringIsOffSinceTheCodecUsesThem() {
        runner.withPropertyValues("tb.actors.cluster.message-types.ping=java.lang.String").run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("messageTypes[ping]").hasMessageContaining("implements io.tbactors.api.TbActorMsg"));
    }

    @Test
    void springBootsReportNamesTheBadClusterPropertyItsOriginAndWhatIsAllowed(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "tb.actors.cluster.enabled=true", "tb.actors.cluster.partitions=0")
                .run().close()).hasRootCauseInstanceOf(BindValidationException.class);
        assertThat(output.getOut() + output.getErr()).contains("Binding to target")
                .contains("Property: tb.actors.cluster.partitions").contains("Value: \"0\"")
                .contains("Reason: allowed is a whole number of at least 1");
    }

    @Test
    void overridesThatOnlyConfirmTheDeliverySettingsAreAccepted() {
        TbClusterProperties properties = new TbClusterProperties();
        properties.getConsumer().put("enable.auto.commit", "false");
        properties.getProducer().put("acks", "-1");
        properties.getProducer().put("enable.idempotence", "TRUE");
        properties.getProducer().put("linger.ms", "20");
        properties.setEnabled(true);
        assertThat(validated(properties).getAllErrors()).isEmpty();
        assertThat(new KafkaClientConfigs(properties, null, null).producer()).containsEntry("acks", "-1").containsEntry("linger.ms", "20");
    }

    @Test
    void clusterSettingsAreNotCheckedWhileClusteringIsOff() {
        runner.withPropertyValues("tb.actors.cluster.partitions=0").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(LocalTbClusterRouter.class));
    }

    @Test
    void anUnknownLocalDeliveryModeIsExplained() {
        runner.withPropertyValues("tb.actors.cluster.local-delivery=sometimes").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new TbActorsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getAction()).contains("one of owned, never");
        });
    }

    @Test
    void clientSettingsComeFromSpringKafkaWithTheClusterGuaranteesOnTop() {
        TbClusterProperties properties = new TbClusterProperties();
        properties.getConsumer().put("session.timeout.ms", "6000");
        KafkaProperties kafka = new KafkaProperties();
        kafka.setBootstrapServers(List.of("kafka-1:9092", "kafka-2:9092"));
        kafka.getConsumer().setEnableAutoCommit(true);

        KafkaClientConfigs configs = new KafkaClientConfigs(properties, kafka, null);

        assertThat(configs.consumer()).containsEntry("bootstrap.servers", "kafka-1:9092,kafka-2:9092")
                .containsEntry("enable.auto.commit", false).containsEntry("group.id", "tb-actors")
                .containsEntry("auto.offset.reset", "earliest").containsEntry("session.timeout.ms", "6000");
        assertThat(configs.producer()).containsEntry("acks", "all").containsEntry("enable.idempotence", true)
                .as("bounded by the 5 s send timeout").containsEntry("max.block.ms", 5000L).containsEntry("delivery.timeout.ms", 5000)
                .containsEntry("request.timeout.ms", 4995);
        assertThat(configs.admin()).containsEntry("bootstrap.servers", "kafka-1:9092,kafka-2:9092");

        properties.setBootstrapServers(List.of("own:9092"));
        assertThat(new KafkaClientConfigs(properties, null, null).consumer()).containsEntry("bootstrap.servers", "own:9092");
        assertThat(new KafkaClientConfigs(new TbClusterProperties(), null, null).consumer())
                .containsEntry("bootstrap.servers", "localhost:9092");
    }

    @Test
    void staticMembershipSetsTheGroupInstanceIdAndNamesTheNodeAfterIt() {
        TbClusterProperties properties = new TbClusterProperties();
        properties.setGroupInstanceId("pod-1");
        properties.setEnabled(true);
        assertThat(validated(properties).getAllErrors()).isEmpty();

        KafkaClientConfigs configs = new KafkaClientConfigs(properties, null, null);

        assertThat(configs.consumer()).containsEntry("group.instance.id", "pod-1").containsEntry("client.id", "pod-1");
        assertThat(properties.nodeName()).isEqualTo("pod-1");
        assertThat(properties.isNodeNameGenerated()).isFalse();
        assertThat(properties.inboxTopicOf("pod-1")).isEqualTo("tb-actors.entities.node.pod-1");
        assertThat(configs.inbox()).doesNotContainKeys("group.id", "group.instance.id").containsEntry("client.id", "pod-1-inbox")
                .containsEntry("auto.offset.reset", "latest");
    }

    @Test
    void withoutANameANodeGetsARandomOneOnceAndDynamicMembership() {
        TbClusterProperties properties = new TbClusterProperties();

        KafkaClientConfigs configs = new KafkaClientConfigs(properties, null, null);

        assertThat(properties.isNodeNameGenerated()).isTrue();
        assertThat(properties.nodeName()).startsWith("node-").isEqualTo(properties.nodeName());
        assertThat(configs.consumer()).doesNotContainKey("group.instance.id").containsEntry("client.id", properties.nodeName());
        assertThat(new TbClusterProperties().nodeName()).isNotEqualTo(properties.nodeName());
    }

    @Test
    void aClientIdOtherThanTheNodeIdIsRefusedNamingBoth() {
        TbClusterProperties properties = new TbClusterProperties();
        properties.setNodeId("node-1");
        properties.getConsumer().put("client.id", "other");
        properties.setEnabled(true);

        assertThat(validated(properties).getFieldErrors()).singleElement().satisfies(error -> {
            assertThat(error.getField()).isEqualTo("consumer[client.id]");
            assertThat(error.getRejectedValue()).isEqualTo("other");
            assertThat(error.getDefaultMessage()).contains("tb.actors.cluster.node-id (node-1)");
        });
    }

    private static Errors validated(TbClusterProperties properties) {
        Errors errors = new BeanPropertyBindingResult(properties, TbClusterProperties.PREFIX);
        properties.validate(properties, errors);
        return errors;
    }

    @Test
    void withoutClusteringABroadcastReachesThisNodesListenersOnly() {
        List<io.tbactors.api.TbActorMsg> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner.withBean(TbBroadcastListener.class, () -> heard::add).run(context -> {
            TbNodeChannel channel = context.getBean(TbNodeChannel.class);
            assertThat(channel).isInstanceOf(LocalTbNodeChannel.class);
            io.tbactors.api.TbActorMsg msg = new io.tbactors.api.TbActorMsg() { };

            assertThat(channel.broadcast(msg)).isCompleted();

            assertThat(heard).containsExactly(msg);
            assertThat(channel.getNodeId()).isEqualTo("local");
            assertThatThrownBy(() -> channel.broadcast(null)).isInstanceOf(IllegalArgumentException.class);

            io.tbactors.api.TbActorMsg direct = new io.tbactors.api.TbActorMsg() { };
            assertThat(channel.send("local", direct)).isCompleted();
            assertThat(heard).containsExactly(msg, direct);
            assertThat(channel.send("node-b", direct)).isCompletedExceptionally();
            assertThat(heard).hasSize(2);
        });
    }

    @Test
    void withoutClusteringARequestWaitsForTheLocalActorAndFailsAfterItsTimeout() {
        runner.withPropertyValues("test.behaviour=LATER").run(context -> {
            TbClusterRouter router = context.getBean(TbClusterRouter.class);
            java.util.concurrent.CompletableFuture<Void> request = router.request("DEVICE", java.util.UUID.randomUUID(),
                    new io.tbactors.api.TbActorMsg() { }, java.time.Duration.ofMillis(200));

            assertThatThrownBy(() -> request.get(10, java.util.concurrent.TimeUnit.SECONDS)).cause()
                    .isInstanceOf(TbClusterReplyTimeoutException.class).hasMessageContaining("PT0.2S");
            assertThatThrownBy(() -> router.request("DEVICE", java.util.UUID.randomUUID(), new io.tbactors.api.TbActorMsg() { },
                    java.time.Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        });
    }
}
