package io.tbactors.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.core.dispatch.Dispatchers;
import io.tbactors.spring.TbActorsFailureAnalyzer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.UrlResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.util.StringUtils;

@ExtendWith(OutputCaptureExtension.class)
class TbActorsPropertiesValidationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TbActorsAutoConfiguration.class));

    @SpringBootConfiguration
    @ImportAutoConfiguration(TbActorsAutoConfiguration.class)
    static class App {
    }

    private static void start(String configName) {
        new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.config.location=classpath:invalid/" + configName + ".properties", "spring.main.banner-mode=off")
                .run().close();
    }

    @ParameterizedTest(name = "{0}={1} is rejected as {0}, allowing {2}")
    @CsvSource(delimiter = ';', value = {
        "throughput; 0; an integer of at least 1",
        "scheduler-pool-size; -1; an integer of at least 1",
        "max-actor-init-attempts; -1; 0 (unlimited, as in ThingsBoard) or more",
        "shutdown-timeout; -5s; a positive duration",
        "dispatchers.io.pool-size; -2; 0 (half the available processors) or a positive number of threads",
        "root-dispatcher; nowhere; the name of a configured dispatcher, one of [default]",
        "slow-processing-threshold; 0ms; a positive duration",
        "restart.max-restarts; -1; 0 (never restart) or more",
        "restart.window; 0s; a positive duration",
        "restart.backoff; -1ms; a duration of 0 or more",
        "dispatchers.io.mailbox-bound; -1; 0 (unbounded) or a positive number of messages",
        "passivation-tick; 0s; a positive duration",
        "dead-letters.log-interval; -1s; a positive duration"
    })
    void anInvalidValueFailsBindingNamingThePropertyAndWhatIsAllowed(String property, String value, String allowed) {
        runner.withPropertyValues("tb.actors." + property + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context).getFailure().rootCause().isInstanceOf(BindValidationException.class);
            BindValidationException failure = (BindValidationException) rootCause(context.getStartupFailure());
            assertThat(failure.getValidationErrors().getAllErrors()).singleElement().satisfies(error -> {
                assertThat(error).isInstanceOf(org.springframework.validation.FieldError.class);
                assertThat(error.getDefaultMessage()).contains(allowed);
            });
            assertThat(failure.getValidationErrors().getBoundProperties()).anySatisfy(bound ->
                    assertThat(bound.getName().toString()).isEqualTo("tb.actors." + property));
            assertThat(failure.getValidationErrors().getAllErrors()).singleElement()
                    .satisfies(error -> assertThat(Origin.from(error)).as("origin of %s", property).isNotNull());
        });
    }

    @Test
    void springBootsReportNamesEachBadPropertyItsValueItsOriginAndWhatIsAllowed(CapturedOutput output) {
        assertThatThrownBy(() -> start("tbactors-invalid-values")).hasRootCauseInstanceOf(BindValidationException.class);
        String report = output.getOut() + output.getErr();
        String file = "Origin: class path resource [invalid/tbactors-invalid-values.properties] - ";
        assertThat(report).contains("Binding to target").contains("Property: tb.actors.throughput")
                .contains("Value: \"0\"\n    " + file + "2:22\n    Reason: allowed is an integer of at least 1")
                .contains(file + "3:28\n    Reason: allowed is a positive duration")
                .contains(file + "4:27\n    Reason: allowed is the name of a configured dispatcher, one of [default]");
    }

    @Test
    void aBadDispatcherValueIsReportedWithItsOriginToo(CapturedOutput output) {
        assertThatThrownBy(() -> start("tbactors-invalid-dispatcher")).hasRootCauseInstanceOf(BindValidationException.class);
        assertThat(output.getOut() + output.getErr()).contains("Property: tb.actors.dispatchers.io.poolSize")
                .contains("Value: \"-2\"\n    Origin: class path resource [invalid/tbactors-invalid-dispatcher.properties] - 2:36\n"
                        + "    Reason: allowed is 0 (half the available processors)");
    }

    @Test
    void aValueOfTheWrongTypeIsReportedWithItsOriginAndTheAllowedValues(CapturedOutput output) {
        assertThatThrownBy(() -> start("tbactors-invalid-type"));
        String report = output.getOut() + output.getErr();
        assertThat(report).contains("Invalid value 'bogus' for property 'tb.actors.dispatchers.io.type'")
                .contains("class path resource [invalid/tbactors-invalid-type.properties] - 2:31")
                .contains("one of auto, fork-join, single, virtual");
    }

    @Test
    void aVirtualDispatcherOnAJvmWithoutVirtualThreadsFailsNamingTheKindsThatWork() {
        runner.withPropertyValues("tb.actors.dispatchers.io.type=virtual").run(context -> {
            if (Dispatchers.virtualThreadsAvailable()) {
                assertThat(context).hasNotFailed();
            } else {
                assertThat(context).getFailure().rootCause().hasMessageContaining("tb.actors.dispatchers.io")
                        .hasMessageContaining("field 'type'")
                        .hasMessageContaining("fork-join, single or auto").hasMessageContaining("Java 21");
            }
        });
    }

    @Test
    void theAnalyzerLeavesValidationFailuresToSpringBootAndIgnoresUnrelatedOnes() {
        runner.withPropertyValues("tb.actors.throughput=0").run(context ->
                assertThat(new TbActorsFailureAnalyzer().analyze(context.getStartupFailure())).isNull());
        assertThat(new TbActorsFailureAnalyzer().analyze(new IllegalStateException("unrelated"))).isNull();
    }

    @Test
    void theAnalyzerExplainsAWrongTypeWithTheAllowedValues() {
        runner.withPropertyValues("tb.actors.dispatchers.io.overflow-policy=drop-all").run(context -> {
            FailureAnalysis analysis = new TbActorsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith("Invalid value 'drop-all' for property "
                    + "'tb.actors.dispatchers.io.overflow-policy'");
            assertThat(analysis.getAction()).contains("one of reject-newest, drop-oldest");
        });
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

    @Test
    void theMetadataCompletesDispatcherSettingsWithValueHints() throws IOException {
        String metadata;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            metadata = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(metadata).contains("\"name\": \"tb.actors.dispatchers.keys\"")
                .contains("\"name\": \"tb.actors.dispatchers.values.type\"")
                .contains("\"name\": \"tb.actors.dispatchers.values.overflow-policy\"")
                .contains("\"name\": \"tb.actors.dispatchers.default.type\"")
                .contains("\"value\": \"fork-join\"").contains("\"value\": \"drop-oldest\"")
                .contains("\"type\": \"java.time.Duration\"");
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
