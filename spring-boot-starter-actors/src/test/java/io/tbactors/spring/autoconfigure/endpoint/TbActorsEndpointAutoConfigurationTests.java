package io.tbactors.spring.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.spring.actuate.TbActorsDispatchersEndpoint;
import io.tbactors.spring.actuate.TbActorsEndpoint;
import io.tbactors.spring.actuate.TbActorsEventsEndpoint;
import io.tbactors.spring.autoconfigure.TbActorsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class TbActorsEndpointAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class, TbActorsEndpointAutoConfiguration.class));

    @Test
    void theEndpointsExistOnlyWhenExposedUnderTheirPrefixedIds() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=tbactorsdispatchers,tbactors,tbactorsevents")
                .run(context -> assertThat(context).hasSingleBean(TbActorsDispatchersEndpoint.class)
                        .hasSingleBean(TbActorsEndpoint.class).hasSingleBean(TbActorsEventsEndpoint.class));
        runner.run(context -> assertThat(context).doesNotHaveBean(TbActorsDispatchersEndpoint.class)
                .doesNotHaveBean(TbActorsEndpoint.class).doesNotHaveBean(TbActorsEventsEndpoint.class));
    }

    @Test
    void theOldGenericIdsNoLongerExposeTheEndpoints() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=dispatchers,actors")
                .run(context -> assertThat(context).doesNotHaveBean(TbActorsDispatchersEndpoint.class)
                        .doesNotHaveBean(TbActorsEndpoint.class));
    }

    @Test
    void theEndpointIdsArePrefixedSoTheyCannotCollideWithAnotherLibrarys() {
        assertThat(TbActorsEndpoint.class.getAnnotation(Endpoint.class).id()).isEqualTo("tbactors");
        assertThat(TbActorsDispatchersEndpoint.class.getAnnotation(Endpoint.class).id()).isEqualTo("tbactorsdispatchers");
        assertThat(TbActorsEventsEndpoint.class.getAnnotation(Endpoint.class).id()).isEqualTo("tbactorsevents");
    }

    @Test
    void withoutActuatorThereAreNoEndpointsAndTheSystemStillStarts() {
        runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
                .withPropertyValues("management.endpoints.web.exposure.include=*")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("tbActorsEndpoint")
                        .doesNotHaveBean("tbActorsDispatchersEndpoint"));
    }
}
