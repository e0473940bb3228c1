package io.tbactors.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.core.dispatch.Dispatchers;
import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.UrlResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.util.StringUtils;

class TbActorsPropertiesValidationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class));

    @ParameterizedTest(name = "{0}={1} fails naming the property and allowing {3}")
    @CsvSource(delimiter = ';', value = {
        "tb.actors.throughput; 0; 0; an integer of at least 1",
        "tb.actors.scheduler-pool-size; -1; -1; an integer of at least 1",
        "tb.actors.max-actor-init-attempts; -1; -1; 0 (unlimited, as in ThingsBoard) or more",
        "tb.actors.shutdown-timeout; -5s; PT-5S; a positive duration",
        "tb.actors.dispatchers.io.pool-size; -2; -2; 0 (half the available processors) or a positive number of threads",
        "tb.actors.root-dispatcher; nowhere; nowhere; the name of a configured dispatcher, one of [default]",
        "tb.actors.dispatchers.io.type; bogus; bogus; one of auto, fork-join, single, virtual",
        "tb.actors.throughput; many; many; a whole number",
        "tb.actors.shutdown-timeout; soon; soon; a duration, such as 10s",
        "tb.actors.metrics.wait-time; maybe; maybe; true or false",
        "tb.actors.slow-processing-threshold; 0ms; PT0S; a positive duration",
        "tb.actors.restart.max-restarts; -1; -1; 0 (never restart) or more",
        "tb.actors.restart.window; 0s; PT0S; a positive duration",
        "tb.actors.restart.backoff; -1ms; PT-0.001S; a duration of 0 or more",
        "tb.actors.dispatchers.io.mailbox-bound; -1; -1; 0 (unbounded) or a positive number of messages",
        "tb.actors.dispatchers.io.overflow-policy; drop-all; drop-all; one of reject-newest, drop-oldest",
        "tb.actors.passivation-tick; 0s; PT0S; a positive duration",
        "tb.actors.dead-letters.log-interval; -1s; PT-1S; a positive duration"
    })
    void anInvalidPropertyFailsStartUpWithAnAnalysisNamingThePropertyAndWhatIsAllowed(String property, String value,
                                                                                       String shown, String allowed) {
        runner.withPropertyValues(property + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new TbActorsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).isEqualTo("Invalid value '" + shown + "' for property '" + property + "'.");
            assertThat(analysis.getAction()).startsWith("Set '" + property + "' to ").contains(allowed);
        });
    }

    @Test
    void aVirtualDispatcherOnAJvmWithoutVirtualThreadsFailsNamingTheKindsThatWork() {
        runner.withPropertyValues("tb.actors.dispatchers.io.type=virtual").run(context -> {
            if (Dispatchers.virtualThreadsAvailable()) {
                assertThat(context).hasNotFailed();
            } else {
                FailureAnalysis analysis = new TbActorsFailureAnalyzer().analyze(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("tb.actors.dispatchers.io.type");
                assertThat(analysis.getAction()).contains("fork-join, single or auto").contains("Java 21");
            }
        });
    }

    @Test
    void theAnalyzerIgnoresFailuresThatAreNotAboutItsProperties() {
        assertThat(new TbActorsFailureAnalyzer().analyze(new IllegalStateException("unrelated"))).isNull();
    }

    @Test
    void theAnalyzerIsRegisteredWithSpringBoot() throws IOException {
        List<String> analyzers = new ArrayList<>();
        for (URL url : Collections.list(getClass().getClassLoader().getResources("META-INF/spring.factories"))) {
            Properties factories = PropertiesLoaderUtils.loadProperties(new UrlResource(url));
            analyzers.addAll(StringUtils.commaDelimitedListToSet(factories.getProperty(FailureAnalyzer.class.getName(), "")));
        }
        assertThat(analyzers).contains(TbActorsFailureAnalyzer.class.getName());
    }
}
