package io.tbactors.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorSystem;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.Dispatchers;
import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.autoconfigure.TbActorsProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class TbActorsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class));

    private static DispatcherStats dispatcher(AssertableApplicationContext context, String name) {
        return context.getBean(DefaultTbActorSystem.class).getDispatcherStats().stream()
                .filter(stats -> stats.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void withNoConfigurationTheSystemRunsOnADefaultDispatcherWithThingsBoardDefaults() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(TbActorSystem.class).hasSingleBean(ActorSystemContext.class)
                    .hasSingleBean(TbActorsLifecycle.class);
            TbActorSystemSettings settings = context.getBean(TbActorSystemSettings.class);
            assertThat(settings.getActorThroughput()).isEqualTo(5);
            assertThat(settings.getSchedulerPoolSize()).isEqualTo(1);
            assertThat(settings.getMaxActorInitAttempts()).isEqualTo(10);
            assertThat(settings.getShutdownTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.isRecordWaitTime()).isFalse();
            assertThat(settings.getContextPropagator()).isNull();
            DefaultTbActorSystem system = context.getBean(DefaultTbActorSystem.class);
            assertThat(system.getDispatcherStats()).extracting(DispatcherStats::name).containsExactly("default");
            assertThat(dispatcher(context, "default").poolSize())
                    .isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
            assertThat(context.getBean(TbActorsLifecycle.class).isRunning()).isTrue();
        });
    }

    @Test
    void withoutARootDeclarationTellExplainsHowToDeclareOne() {
        runner.run(context -> {
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            assertThat(actors.hasRootActor()).isFalse();
            assertThat(actors.getRootActor()).isNull();
            assertThatThrownBy(() -> actors.tell(new DeviceMsg("d", new Outcomes())))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No root actor is declared")
                    .hasMessageContaining(TbRootActorCreator.class.getName());
        });
    }

    @Test
    void tbActorsEnabledFalseSwitchesTheStarterOff() {
        runner.withPropertyValues("tb.actors.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(TbActorSystem.class)
                .doesNotHaveBean(ActorSystemContext.class)
                .doesNotHaveBean(TbActorsProperties.class));
    }

    @Test
    void propertiesReachTheActorSystemSettings() {
        runner.withPropertyValues("tb.actors.throughput=7", "tb.actors.scheduler-pool-size=2",
                "tb.actors.max-actor-init-attempts=3", "tb.actors.shutdown-timeout=3s", "tb.actors.metrics.wait-time=true")
                .run(context -> {
                    TbActorSystemSettings settings = context.getBean(DefaultTbActorSystem.class).getSettings();
                    assertThat(settings.getActorThroughput()).isEqualTo(7);
                    assertThat(settings.getSchedulerPoolSize()).isEqualTo(2);
                    assertThat(settings.getMaxActorInitAttempts()).isEqualTo(3);
                    assertThat(settings.getShutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(settings.isRecordWaitTime()).isTrue();
                });
    }

    @Test
    void slowProcessingAndRestartPropertiesReachTheActorSystemSettings() {
        runner.withPropertyValues("tb.actors.slow-processing-threshold=250ms", "tb.actors.restart.max-restarts=5",
                "tb.actors.restart.window=2m", "tb.actors.restart.backoff=0s").run(context -> {
                    TbActorSystemSettings settings = context.getBean(DefaultTbActorSystem.class).getSettings();
                    assertThat(settings.getSlowProcessingThreshold()).isEqualTo(Duration.ofMillis(250));
                    assertThat(settings.getMaxRestarts()).isEqualTo(5);
                    assertThat(settings.getRestartWindow()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(settings.getRestartBackoff()).isZero();
                });
    }

    @Test
    void aDispatcherMailboxBoundAndOverflowPolicyApplyToItsActors() {
        runner.withPropertyValues("tb.actors.dispatchers.devices.mailbox-bound=100",
                "tb.actors.dispatchers.devices.overflow-policy=drop-oldest", "tb.actors.dispatchers.rules.mailbox-bound=5")
                .run(context -> {
                    DefaultTbActorSystem system = context.getBean(DefaultTbActorSystem.class);
                    assertThat(system.getDispatcher("devices").orElseThrow().getMailboxBound())
                            .isEqualTo(TbMailboxBound.dropOldest(100));
                    assertThat(system.getDispatcher("rules").orElseThrow().getMailboxBound())
                            .isEqualTo(TbMailboxBound.rejectNewest(5));
                    assertThat(system.getDispatcher("default").orElseThrow().getMailboxBound()).isNull();
                });
    }

    @Test
    void aDispatcherCanGiveItsActorsPaddedMailboxes() {
        runner.withPropertyValues("tb.actors.dispatchers.gateway.padded-mailboxes=true", "tb.actors.dispatchers.devices.pool-size=1")
                .run(context -> {
                    DefaultTbActorSystem system = context.getBean(DefaultTbActorSystem.class);
                    assertThat(system.getDispatcher("gateway").orElseThrow().hasPaddedMailboxes()).isTrue();
                    assertThat(system.getDispatcher("devices").orElseThrow().hasPaddedMailboxes()).isFalse();
                    assertThat(system.getDispatcher("default").orElseThrow().hasPaddedMailboxes()).isFalse();
                });
    }

    @Test
    void aRootDeclarationMayItselfDependOnTheActorSystemContext() {
        runner.withUserConfiguration(RootNeedingContextConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            assertThat(actors.hasRootActor()).isTrue();
            Outcomes outcomes = new Outcomes();
            assertThat(actors.tryTell(new DeviceMsg("d", outcomes))).isTrue();
            await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(1));
        });
    }

    @Test
    void configuredDispatchersAreCreatedBesideTheBuiltInDefaultOne() {
        runner.withPropertyValues("tb.actors.dispatchers.io.type=single", "tb.actors.dispatchers.cpu.type=fork-join",
                "tb.actors.dispatchers.cpu.pool-size=3").run(context -> {
                    assertThat(context.getBean(DefaultTbActorSystem.class).getDispatcherStats())
                            .extracting(DispatcherStats::name).containsExactly("cpu", "default", "io");
                    assertThat(dispatcher(context, "cpu").kind()).isEqualTo("fork-join");
                    assertThat(dispatcher(context, "cpu").poolSize()).isEqualTo(3);
                    assertThat(dispatcher(context, "io").kind()).isEqualTo("single");
                    assertThat(dispatcher(context, "io").poolSize()).isEqualTo(1);
                });
    }

    @Test
    void configuringTheDefaultDispatcherReplacesTheBuiltInOne() {
        runner.withPropertyValues("tb.actors.dispatchers.default.type=single").run(context -> {
            assertThat(context.getBean(DefaultTbActorSystem.class).getDispatcherStats()).hasSize(1);
            assertThat(dispatcher(context, "default").kind()).isEqualTo("single");
        });
    }

    @Test
    void anAutoDispatcherUsesVirtualThreadsOnlyWhenSpringThreadsVirtualIsEnabledOnJava21() {
        runner.withPropertyValues("spring.threads.virtual.enabled=true", "tb.actors.dispatchers.default.pool-size=2")
                .run(context -> assertThat(dispatcher(context, "default").kind())
                        .isEqualTo(Dispatchers.virtualThreadsAvailable() ? "virtual" : "fork-join"));
        runner.withPropertyValues("tb.actors.dispatchers.default.pool-size=2")
                .run(context -> assertThat(dispatcher(context, "default").kind()).isEqualTo("fork-join"));
    }

    /** A reply to {@link Question}. */
    record Answer(String text) implements io.tbactors.api.TbActorMsg {
    }

    /** A request whose answer goes to {@code replyTo}. */
    record Question(String text, io.tbactors.api.TbActorRef replyTo) implements io.tbactors.api.TbActorMsg {
    }

    @Test
    void askReachesTheRootAndAnyActorAndFailsOnceShutdownBegins() {
        runner.withBean(TbRootActorCreator.class, () -> TestActors.rootThat(msg -> {
            if (msg instanceof Question q) {
                q.replyTo().tell(new Answer(q.text().toUpperCase(java.util.Locale.ROOT)));
            }
        })).run(context -> {
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            Answer answer = actors.<Answer>ask(replyTo -> new Question("hello", replyTo), Duration.ofSeconds(5))
                    .get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(answer.text()).isEqualTo("HELLO");
            Answer byId = actors.<Answer>ask(actors.getRootActor().getActorId(), r -> new Question("id", r), Duration.ofSeconds(5))
                    .get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(byId.text()).isEqualTo("ID");
            actors.stopAcceptingMessages();
            assertThatThrownBy(() -> actors.ask(r -> new Question("late", r), Duration.ofSeconds(1)).get())
                    .hasCauseInstanceOf(io.tbactors.api.TbActorStoppedException.class)
                    .hasMessageContaining("shutting down");
        });
    }

    /** Collects dead-letter events. */
    static final class DeadLetterCollector implements org.springframework.context.ApplicationListener<TbDeadLetterEvent> {
        final java.util.List<TbDeadLetterEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(TbDeadLetterEvent event) {
            events.add(event);
        }
    }

    @Test
    void deadLettersBecomeApplicationEventsUnlessSwitchedOff() {
        io.tbactors.api.TbActorId missing = new io.tbactors.api.TbStringActorId("missing");
        runner.withBean(DeadLetterCollector.class).run(context -> {
            DefaultTbActorSystem system = context.getBean(DefaultTbActorSystem.class);
            assertThatThrownBy(() -> system.tell(missing, new DeviceMsg("x", new Outcomes())));
            DeadLetterCollector collector = context.getBean(DeadLetterCollector.class);
            assertThat(collector.events).singleElement().satisfies(event -> {
                assertThat(event.getDeadLetter().target()).isEqualTo(missing);
                assertThat(event.getDeadLetter().reason()).isEqualTo(io.tbactors.core.observe.DeadLetterReason.NOT_REGISTERED);
                assertThat(event.getSource()).isSameAs(system);
            });
        });
        runner.withBean(DeadLetterCollector.class).withPropertyValues("tb.actors.dead-letters.publish-events=false").run(context -> {
            assertThat(context).doesNotHaveBean(DeadLetterEventBridge.class);
            DefaultTbActorSystem system = context.getBean(DefaultTbActorSystem.class);
            assertThatThrownBy(() -> system.tell(missing, new DeviceMsg("x", new Outcomes())));
            assertThat(context.getBean(DeadLetterCollector.class).events).isEmpty();
            assertThat(system.getDeadLetterCount()).isEqualTo(1);
        });
    }

    @Test
    void pausingAndRestartingTheContextKeepsTheActorsRunning() {
        runner.withBean(RouterCreator.class).run(context -> {
            org.springframework.context.ConfigurableApplicationContext app =
                    (org.springframework.context.ConfigurableApplicationContext) context.getSourceApplicationContext();
            app.pause();
            app.restart();
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            assertThat(actors.isAcceptingMessages()).isTrue();
            Outcomes outcomes = new Outcomes();
            actors.tell(new DeviceMsg("d1", outcomes));
            await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(1));
            TbActorsLifecycle lifecycle = context.getBean(TbActorsLifecycle.class);
            assertThat(lifecycle.isPauseable()).isFalse();
            lifecycle.stop();
            assertThatThrownBy(lifecycle::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot start again");
        });
    }

    @Test
    void passivationTickAndLogIntervalReachTheSettings() {
        runner.withPropertyValues("tb.actors.passivation-tick=250ms", "tb.actors.dead-letters.log-interval=1m").run(context -> {
            TbActorSystemSettings settings = context.getBean(TbActorSystemSettings.class);
            assertThat(settings.getPassivationTick()).isEqualTo(Duration.ofMillis(250));
            assertThat(settings.getRateLimitedLogInterval()).isEqualTo(Duration.ofMinutes(1));
        });
    }

    @Test
    void theDeclaredRootActorIsCreatedOnStartAndReceivesTells() {
        runner.withBean(RouterCreator.class).run(context -> {
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            assertThat(actors.hasRootActor()).isTrue();
            assertThat(actors.getRootActor()).isNotNull();
            assertThat(actors.isAcceptingMessages()).isTrue();
            Outcomes outcomes = new Outcomes();
            for (int i = 0; i < 50; i++) {
                actors.tell(new DeviceMsg("d" + (i % 5), outcomes));
            }
            actors.tellWithHighPriority(new DeviceMsg("d0", outcomes));
            await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(51));
            assertThat(actors.getIntrospection().orElseThrow().getActorCount()).isEqualTo(6);
            assertThat(actors.getRootActor().getActorId().toString()).isEqualTo("router");
        });
    }

    @Test
    void theRootActorRunsOnTheDispatcherItsDeclarationNames() {
        runner.withPropertyValues("tb.actors.dispatchers.root.type=single")
                .withBean(RouterCreator.class, () -> new RouterCreator("root", "default"))
                .run(context -> assertThat(context.getBean(DefaultTbActorSystem.class).findActorStats("router"))
                        .hasValueSatisfying(stats -> assertThat(stats.dispatcher()).isEqualTo("root")));
    }

    @Test
    void theRootDispatcherPropertyPlacesARootWhoseDeclarationNamesNone() {
        runner.withPropertyValues("tb.actors.dispatchers.io.type=single", "tb.actors.root-dispatcher=io")
                .withBean(RouterCreator.class)
                .run(context -> assertThat(context.getBean(DefaultTbActorSystem.class).findActorStats("router"))
                        .hasValueSatisfying(stats -> assertThat(stats.dispatcher()).isEqualTo("io")));
    }

    @Test
    void twoRootActorDeclarationsFailStartUp() {
        runner.withBean("firstRoot", RouterCreator.class).withBean("secondRoot", RouterCreator.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("Found 2 root actor declarations")
                        .hasMessageContaining("firstRoot").hasMessageContaining("secondRoot")
                        .hasMessageContaining("declare exactly one"));
    }

    @Test
    void aRootDeclarationNamingAnUnknownDispatcherFailsStartUp() {
        runner.withBean(RouterCreator.class, () -> new RouterCreator("nowhere", "default"))
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("'nowhere' does not exist"));
    }

    @Test
    void theApplicationsOwnBeansReplaceTheDefaults() {
        TbActorSystemSettings ownSettings = TbActorSystemSettings.builder().actorThroughput(42).build();
        runner.withBean(TbActorSystemSettings.class, () -> ownSettings)
                .withUserConfiguration(OwnContextConfiguration.class)
                .run(context -> {
                    assertThat(context.getBean(DefaultTbActorSystem.class).getSettings()).isSameAs(ownSettings);
                    assertThat(context).hasSingleBean(ActorSystemContext.class).hasBean("ownContext");
                });
    }

    @Test
    void closingTheContextStopsTheSystemAndLaterTellsAreToldStopped() {
        runner.withBean(RouterCreator.class).run(context -> {
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            DefaultTbActorSystem system = context.getBean(DefaultTbActorSystem.class);
            context.close();
            assertThat(system.isRunning()).isFalse();
            assertThat(actors.isAcceptingMessages()).isFalse();
            Outcomes outcomes = new Outcomes();
            actors.tell(new DeviceMsg("d", outcomes));
            actors.tellWithHighPriority(new DeviceMsg("d", outcomes));
            assertThat(outcomes.stopped).hasValue(2);
            assertThat(actors.getRejectedMessageCount()).isEqualTo(2);
        });
    }

    @Test
    void actorsReachTheApplicationsBeansAndTheSchedulerThroughTheContext() {
        runner.withBean(StringBuilder.class).run(context -> {
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            assertThat(actors.getBean(StringBuilder.class)).isSameAs(context.getBean(StringBuilder.class))
                    .isSameAs(actors.getBean(StringBuilder.class));
            assertThat(actors.getApplicationContext()).isSameAs(context.getSourceApplicationContext());
            assertThat(actors.getScheduler()).isSameAs(actors.getActorSystem().getScheduler());
            assertThat(actors.getActorSystem()).isSameAs(context.getBean(TbActorSystem.class));
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class RootNeedingContextConfiguration {
        @Bean
        TbRootActorCreator rootActor(ActorSystemContext actorSystemContext) {
            assertThat(actorSystemContext.getActorSystem()).isNotNull();
            return new RouterCreator();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnContextConfiguration {
        @Bean
        ActorSystemContext ownContext(DefaultTbActorSystem actorSystem, ApplicationContext applicationContext) {
            return new ActorSystemContext(actorSystem, applicationContext, (TbRootActorCreator) null);
        }
    }
}
