package io.tbactors.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.tbactors.api.TbActorMsg;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import io.tbactors.spring.actuate.ActorsEndpoint;
import io.tbactors.spring.actuate.ActorsHealthIndicator;
import io.tbactors.spring.actuate.DispatchersEndpoint;
import io.tbactors.spring.metrics.TbActorsMeterBinder;
import io.tbactors.spring.metrics.TbActorsMeterNames;
import io.tbactors.spring.metrics.TbActorsMetricsListener;
import io.tbactors.spring.tracing.ContextSnapshotMessagePropagator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbActorsObservabilityAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class));

    @Test
    void theHealthIndicatorIsTheActorsComponentAndReportsUp() {
        runner.run(context -> {
            assertThat(context).hasBean("actorsHealthIndicator");
            assertThat(context.getBean("actorsHealthIndicator", HealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void managementHealthActorsEnabledFalseRemovesTheHealthIndicator() {
        runner.withPropertyValues("management.health.actors.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ActorsHealthIndicator.class));
    }

    @Test
    void theEndpointsExistOnlyWhenExposed() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=dispatchers,actors")
                .run(context -> assertThat(context).hasSingleBean(DispatchersEndpoint.class).hasSingleBean(ActorsEndpoint.class));
        runner.run(context -> assertThat(context).doesNotHaveBean(DispatchersEndpoint.class).doesNotHaveBean(ActorsEndpoint.class));
    }

    @Test
    void withoutActuatorMicrometerOrContextPropagationTheActorSystemStillWorks() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class, Endpoint.class, MeterRegistry.class,
                        ContextSnapshotFactory.class))
                .withPropertyValues("management.endpoints.web.exposure.include=*")
                .withBean(RouterCreator.class)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ActorSystemContext.class)
                            .doesNotHaveBean("actorsHealthIndicator")
                            .doesNotHaveBean("dispatchersEndpoint").doesNotHaveBean("actorsEndpoint")
                            .doesNotHaveBean("tbActorsMetricsListener").doesNotHaveBean("tbActorsMeterBinder")
                            .doesNotHaveBean("tbMessageContextPropagator");
                    Outcomes outcomes = new Outcomes();
                    context.getBean(ActorSystemContext.class).tell(new DeviceMsg("d", outcomes));
                    await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(1));
                });
    }

    @Test
    void withAMeterRegistryMessagesActorsAndDispatchersAreMeasured() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, TbActorsAutoConfiguration.class))
                .withPropertyValues("tb.actors.metrics.wait-time=true", "tb.actors.dispatchers.default.type=fork-join",
                        "tb.actors.dispatchers.default.pool-size=2")
                .withBean(RouterCreator.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(TbActorsMetricsListener.class).hasSingleBean(TbActorsMeterBinder.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    Outcomes outcomes = new Outcomes();
                    for (int i = 0; i < 30; i++) {
                        context.getBean(ActorSystemContext.class).tell(new DeviceMsg("d" + (i % 3), outcomes));
                    }
                    await().untilAsserted(() -> assertThat(registry.find(TbActorsMeterNames.MESSAGES_PROCESSED)
                            .tags("dispatcher", "default", "actor.type", "DeviceActor").functionCounter())
                            .isNotNull().satisfies(counter -> assertThat(counter.count()).isEqualTo(30.0)));
                    assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSED).tag("actor.type", "RouterActor")
                            .functionCounter().count())
                            .isEqualTo(30.0);
                    assertThat(registry.get(TbActorsMeterNames.MESSAGES_FAILED).tag("actor.type", "DeviceActor").counter().count())
                            .isZero();
                    assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tag("actor.type", "DeviceActor").timer().count())
                            .isEqualTo(30);
                    assertThat(registry.get(TbActorsMeterNames.MESSAGES_WAIT).tag("actor.type", "DeviceActor").timer().count())
                            .isEqualTo(30);
                    assertThat(registry.get(TbActorsMeterNames.ACTORS_ALIVE).tag("actor.type", "DeviceActor").gauge().value())
                            .isEqualTo(3.0);
                    assertThat(registry.get(TbActorsMeterNames.MAILBOX_BACKLOG).tag("dispatcher", "default").gauge().value()).isZero();
                    assertThat(registry.get(TbActorsMeterNames.DISPATCHER_TURNS).tag("dispatcher", "default").functionCounter().count())
                            .isPositive();
                    assertThat(registry.get(TbActorsMeterNames.MESSAGES_TOLD_AFTER_STOP).functionCounter().count()).isZero();
                    assertThat(registry.get(TbActorsMeterNames.DEAD_LETTERS).functionCounter().count()).isZero();
                    assertThat(registry.get(TbActorsMeterNames.PASSIVATED).functionCounter().count()).isZero();
                    assertThat(registry.get(TbActorsMeterNames.CALLBACK_FAILURES).functionCounter().count()).isZero();
                    assertThat(registry.get("tb.actors.executor.parallelism").tags("dispatcher", "default", "name", "default")
                            .gauge().value()).isEqualTo(2.0);
                    assertThat(registry.getMeters()).allSatisfy(meter -> assertThat(meter.getId().getTags())
                            .noneSatisfy(tag -> assertThat(tag.getValue()).startsWith("DEVICE|")));
                });
    }

    @Test
    void tracingEnabledCarriesTheTellersContextToTheActor() {
        ThreadLocal<String> traceId = new ThreadLocal<>();
        ContextRegistry.getInstance().registerThreadLocalAccessor("test.trace", traceId);
        List<String> seen = new CopyOnWriteArrayList<>();
        try {
            runner.withPropertyValues("tb.actors.tracing.enabled=true")
                    .withBean(TbRootActorCreator.class, () -> TestActors.rootThat(msg -> seen.add(String.valueOf(traceId.get()))))
                    .run(context -> {
                        assertThat(context).hasSingleBean(ContextSnapshotMessagePropagator.class);
                        assertThat(context.getBean(DefaultTbActorSystem.class).getSettings().getContextPropagator())
                                .isSameAs(context.getBean(TbMessageContextPropagator.class));
                        traceId.set("trace-1");
                        context.getBean(ActorSystemContext.class).tell(new TbActorMsg() { });
                        traceId.set("trace-2");
                        context.getBean(ActorSystemContext.class).tell(new TbActorMsg() { });
                        traceId.remove();
                        await().untilAsserted(() -> assertThat(seen).containsExactly("trace-1", "trace-2"));
                    });
        } finally {
            ContextRegistry.getInstance().removeThreadLocalAccessor("test.trace");
        }
    }

    @Test
    void tracingEnabledWithoutContextPropagationFailsNamingTheProperty() {
        runner.withClassLoader(new FilteredClassLoader(ContextSnapshotFactory.class))
                .withPropertyValues("tb.actors.tracing.enabled=true")
                .run(context -> assertThat(new TbActorsFailureAnalyzer().analyze(context.getStartupFailure()).getAction())
                        .contains("tb.actors.tracing.enabled").contains("io.micrometer:context-propagation"));
    }
}
