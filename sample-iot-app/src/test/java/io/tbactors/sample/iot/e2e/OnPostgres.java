package io.tbactors.sample.iot.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

/**
 * Runs an end-to-end test class's tests again with the {@code postgres} profile on, against a real PostgreSQL server
 * that the test run starts (see {@link TestPostgres}): put it on a subclass of the test class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ActiveProfiles("postgres")
@ContextConfiguration(initializers = PostgresDatabaseInitializer.class)
@interface OnPostgres {
}
