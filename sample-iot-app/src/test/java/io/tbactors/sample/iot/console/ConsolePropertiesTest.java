package io.tbactors.sample.iot.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;

class ConsolePropertiesTest {

    private final Validator validator = Validation.buildDefaultValidatorFactory().getValidator();

    @Test
    void theDefaultsAreValid() {
        assertThat(validator.validate(new ConsoleProperties())).isEmpty();
    }

    @Test
    void aRefreshIntervalOutsideTheAllowedRangeIsRefusedNamingThePropertyAndTheRange() {
        ConsoleProperties properties = new ConsoleProperties();
        properties.setRefreshInterval(Duration.ofMillis(10));

        assertThat(messages(properties)).containsExactly("sample.console.refresh-interval must be between 100ms and 1m");
    }

    @Test
    void aStreamTimeoutUnderTenSecondsIsRefused() {
        ConsoleProperties properties = new ConsoleProperties();
        properties.setStreamTimeout(Duration.ofSeconds(1));

        assertThat(messages(properties)).containsExactly("sample.console.stream-timeout must be at least 10s");
    }

    private Set<String> messages(ConsoleProperties properties) {
        return validator.validate(properties).stream().map(ConstraintViolation::getMessage)
                .collect(java.util.stream.Collectors.toSet());
    }
}
