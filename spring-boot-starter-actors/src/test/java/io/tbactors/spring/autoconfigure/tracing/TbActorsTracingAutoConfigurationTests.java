package io.tbactors.spring.autoconfigure.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.tbactors.api.TbActorMsg;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.observe.TbMessageContextPropagator;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.TbRootActorCreator;
import io.tbactors.spring.TestActors;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import io.tbactors.spring.tracing.ContextSnapshotMessagePropagator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbActorsTracingAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsTracingAutoConfiguration.class, TbActorsAutoConfiguration.class));

    @Test
    void tracingIsOffByDefault() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(TbMessageContextPropagator.class);
            assertThat(context.getBean(TbActorSystemSettings.class).getContextPropagator()).isNull();
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
                        assertThat(context.getBean(TbActorSystemSettings.class).getContextPropagator())
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
    void tracingEnabledWithoutContextPropagationFailsNamingThePropertyAndTheLibrary() {
        runner.withClassLoader(new FilteredClassLoader(ContextSnapshotFactory.class))
                .withPropertyValues("tb.actors.tracing.enabled=true")
                .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("tracing.enabled")
                        .hasMessageContaining("io.micrometer:context-propagation"));
    }
}
