package io.tbactors.sample.iot.e2e;

import java.util.Map;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Points an application context on the {@code postgres} profile at a fresh database on the test run's PostgreSQL
 * server. Only the URL changes (the server listens on a free port); user and password stay the profile's.
 */
class PostgresDatabaseInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("testPostgres",
                Map.of("spring.datasource.url", TestPostgres.newDatabase())));
    }
}
