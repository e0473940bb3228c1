package io.tbactors.testkit.spring;

import io.tbactors.testkit.TbActorProbes;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Sets a {@code @SpringBootTest} application up for testing its actors: a short shutdown timeout, so that closing the
 * test's context does not wait the production drain time, and a {@link TbActorProbes} bean that makes probes in the
 * application's actor system ({@link TbActorProbes}).
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureTbActors
 * class AlarmFlowTest {
 *     @Autowired TbActorProbes probes;
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("tb.actors")
public @interface AutoConfigureTbActors {

    /** @return the value of {@code tb.actors.shutdown-timeout} in the test, 1 second unless set */
    String shutdownTimeout() default "1s";
}
