package io.tbactors.spring.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.spring.actuate.ActorsHealthIndicator;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbActorsHealthAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, TbActorsHealthAutoConfiguration.class));

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
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ActorsHealthIndicator.class));
    }

    @Test
    void withoutSpringBootsHealthSupportThereIsNoIndicatorAndTheSystemStillStarts() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("actorsHealthIndicator"));
    }

    @Test
    void theApplicationsOwnIndicatorNamedActorsReplacesTheStartersOne() {
        HealthIndicator own = () -> org.springframework.boot.health.contributor.Health.down().build();
        runner.withBean("actorsHealthIndicator", HealthIndicator.class, () -> own)
                .run(context -> assertThat(context.getBean("actorsHealthIndicator")).isSameAs(own));
    }

    @Test
    void withTheStarterSwitchedOffThereIsNoIndicator() {
        runner.withPropertyValues("tb.actors.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("actorsHealthIndicator"));
    }
}
