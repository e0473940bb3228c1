package io.tbactors.sample.iot.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class DeviceApiPropertiesTest {

    private final Validator validator = Validation.buildDefaultValidatorFactory().getValidator();

    @Test
    void theDefaultsAreValid() {
        assertThat(validator.validate(new SampleProperties().getDeviceApi())).isEmpty();
    }

    @Test
    void boundsOutOfRangeAreRefusedNamingThePropertyAndWhatIsAllowed() {
        SampleProperties.DeviceApi deviceApi = new SampleProperties().getDeviceApi();
        deviceApi.setMaxInFlightPerDevice(0);
        deviceApi.setMaxInFlightPerTenant(0);
        deviceApi.setMaxParsing(DataSize.ofKilobytes(32));

        assertThat(messages(deviceApi)).containsExactlyInAnyOrder(
                "sample.device-api.max-in-flight-per-device must be at least 1 (values in flight)",
                "sample.device-api.max-in-flight-per-tenant must be at least 1 (values in flight)",
                "sample.device-api.max-parsing must be at least sample.device-api.max-payload-size");
    }

    private Set<String> messages(SampleProperties.DeviceApi deviceApi) {
        return validator.validate(deviceApi).stream().map(ConstraintViolation::getMessage).collect(Collectors.toSet());
    }
}
