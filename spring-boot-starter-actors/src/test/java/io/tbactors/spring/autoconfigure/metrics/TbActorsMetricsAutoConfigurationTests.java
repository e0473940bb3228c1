package io.tbactors.spring.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.metrics.TbActorsMeterBinder;
import io.tbactors.spring.metrics.TbActorsMeterNames;
import io.tbactors.spring.metrics.TbActorsMetricsListener;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbActorsMetricsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, TbActorsAutoConfiguration.class,
                    TbActorsMetricsAutoConfiguration.class))
            .withPropertyValues("tb.actors.dispatchers.default.type=fork-join", "tb.actors.dispatchers.default.pool-size=2")
            .withBean(RouterCreator.class);

    @Test
    void messagesActorsAndDispatchersAreMeasuredInBaseUnitsByOneTimerWithAnOutcome() {
        runner.withPropertyValues("tb.actors.metrics.wait-time=true").run(context -> {
            assertThat(context).hasSingleBean(TbActorsMetricsListener.class).hasSingleBean(TbActorsMeterBinder.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Outcomes outcomes = new Outcomes();
            for (int i = 0; i < 30; i++) {
                context.getBean(ActorSystemContext.class).tell(new DeviceMsg("d" + (i % 3), outcomes));
            }
            await().untilAsserted(() -> assertThat(registry.find(TbActorsMeterNames.MESSAGES_PROCESSING)
                    .tags("dispatcher", "default", "actor.type", "DeviceActor", "outcome", "success").timer())
                    .isNotNull().satisfies(timer -> assertThat(timer.count()).isEqualTo(30)));
            assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tags("actor.type", "RouterActor", "outcome", "success")
                    .timer().count()).isEqualTo(30);
            assertThat(registry.get(TbActorsMeterNames.MESSAGES_PROCESSING).tags("actor.type", "DeviceActor", "outcome", "failure")
                    .timer().count()).isZero();
            assertThat(registry.find("tb.actors.messages.processed").meter()).isNull();
            assertThat(registry.find("tb.actors.messages.failed").meter()).isNull();
            assertThat(registry.get(TbActorsMeterNames.MESSAGES_WAIT).tag("actor.type", "DeviceActor").timer().count()).isEqualTo(30);
            assertThat(registry.get(TbActorsMeterNames.ACTORS_ALIVE).tag("actor.type", "DeviceActor").gauge().value()).isEqualTo(3.0);
            assertThat(registry.get(TbActorsMeterNames.ACTORS_ALIVE).gauge().getId().getBaseUnit()).isEqualTo("actors");
            assertThat(registry.get(TbActorsMeterNames.MAILBOX_BACKLOG).tag("dispatcher", "default").gauge().getId().getBaseUnit())
                    .isEqualTo("messages");
            assertThat(registry.get(TbActorsMeterNames.DISPATCHER_TURNS).tag("dispatcher", "default").functionCounter().count())
                    .isPositive();
            assertThat(registry.get(TbActorsMeterNames.MESSAGES_TOLD_AFTER_STOP).functionCounter().count()).isZero();
            assertThat(registry.get(TbActorsMeterNames.DEAD_LETTERS).functionCounter().count()).isZero();
            assertThat(registry.get(TbActorsMeterNames.PASSIVATED).functionCounter().count()).isZero();
            assertThat(registry.get(TbActorsMeterNames.CALLBACK_FAILURES).functionCounter().count()).isZero();
            assertThat(registry.get("tb.actors.executor.parallelism").tag("name", "default").gauge().value()).isEqualTo(2.0);
        });
    }

    @Test
    void noMeterCarriesAnActorIdOrATagThatRepeatsAnother() {
        runner.run(context -> {
            Outcomes outcomes = new Outcomes();
            context.getBean(ActorSystemContext.class).tell(new DeviceMsg("d", outcomes));
            await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(1));
            List<Meter> ours = context.getBean(MeterRegistry.class).getMeters().stream()
                    .filter(meter -> meter.getId().getName().startsWith("tb.actors.")).toList();
            assertThat(ours).isNotEmpty().allSatisfy(meter -> {
                List<Tag> tags = meter.getId().getTags();
                assertThat(tags).noneSatisfy(tag -> assertThat(tag.getValue()).startsWith("DEVICE|"));
                assertThat(tags.stream().map(Tag::getValue).distinct().count()).as("tags of %s", meter.getId())
                        .isEqualTo(tags.size());
            });
        });
    }

    @Test
    void withoutAMeterRegistryOrMicrometerThereAreNoMeters() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, TbActorsMetricsAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(TbActorsMetricsListener.class));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, TbActorsMetricsAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("tbActorsMetricsListener")
                        .doesNotHaveBean("tbActorsMeterBinder"));
    }
}
