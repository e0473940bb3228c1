package io.tbactors.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.spring.ActorSystemContext;
import io.tbactors.spring.TbActorsLifecycle;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import io.tbactors.spring.actuate.ActorsHealthIndicator;
import io.tbactors.spring.actuate.TbActorsEndpoint;
import io.tbactors.spring.autoconfigure.endpoint.TbActorsEndpointAutoConfiguration;
import io.tbactors.spring.autoconfigure.health.TbActorsHealthAutoConfiguration;
import io.tbactors.spring.autoconfigure.metrics.TbActorsMetricsAutoConfiguration;
import io.tbactors.spring.autoconfigure.tracing.TbActorsTracingAutoConfiguration;
import io.tbactors.spring.metrics.TbActorsMeterBinder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** An application that declares its own {@link TbActorSystem}: every auto-configuration works with it or steps aside. */
class ApplicationOwnActorSystemTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, TbActorsTracingAutoConfiguration.class,
                    TbActorsAutoConfiguration.class, TbActorsHealthAutoConfiguration.class, TbActorsEndpointAutoConfiguration.class,
                    TbActorsMetricsAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=*")
            .withBean(RouterCreator.class);

    /** A system that is only a {@link TbActorSystem}: it offers no introspection. */
    private static TbActorSystem plainSystem(DefaultTbActorSystem delegate) {
        return (TbActorSystem) Proxy.newProxyInstance(TbActorSystem.class.getClassLoader(), new Class<?>[] {TbActorSystem.class},
                (proxy, method, args) -> {
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aPlainActorSystemOfTheApplicationStartsAndItsRootActorReceivesTells() {
        DefaultTbActorSystem delegate = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
        delegate.createDispatcher("default", java.util.concurrent.Executors.newFixedThreadPool(1));
        runner.withBean(TbActorSystem.class, () -> plainSystem(delegate)).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(TbActorSystem.class).doesNotHaveBean(DefaultTbActorSystem.class)
                    .hasSingleBean(ActorSystemContext.class).hasSingleBean(TbActorsLifecycle.class)
                    .doesNotHaveBean(ActorsHealthIndicator.class).doesNotHaveBean(TbActorsEndpoint.class)
                    .doesNotHaveBean(TbActorsMeterBinder.class);
            ActorSystemContext actors = context.getBean(ActorSystemContext.class);
            assertThat(actors.getIntrospection()).isEmpty();
            Outcomes outcomes = new Outcomes();
            actors.tell(new DeviceMsg("d", outcomes));
            await().untilAsserted(() -> assertThat(outcomes.processed).hasValue(1));
            assertThat(actors.ask(replyTo -> new DeviceMsg("d", outcomes), Duration.ofSeconds(1)))
                    .failsWithin(Duration.ofSeconds(1)).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(UnsupportedOperationException.class);
        });
        assertThat(delegate.isRunning()).as("the lifecycle stopped the application's system").isFalse();
    }

    @Test
    void theApplicationsDefaultActorSystemGetsHealthEndpointsAndMeters() {
        runner.withBean("ownSystem", DefaultTbActorSystem.class, () -> {
            DefaultTbActorSystem own = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
            own.createDispatcher("default", java.util.concurrent.Executors.newFixedThreadPool(1));
            return own;
        }).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(TbActorSystem.class).hasBean("ownSystem")
                    .hasSingleBean(ActorsHealthIndicator.class).hasSingleBean(TbActorsEndpoint.class)
                    .hasSingleBean(TbActorsMeterBinder.class);
            assertThat(context.getBean(ActorSystemContext.class).getIntrospection())
                    .containsSame(context.getBean("ownSystem", DefaultTbActorSystem.class));
        });
    }
}
