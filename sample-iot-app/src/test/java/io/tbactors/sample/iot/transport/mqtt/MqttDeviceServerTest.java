package io.tbactors.sample.iot.transport.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.stream.Collectors;

import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.ingestion.DeviceIngestion;
import io.tbactors.sample.iot.ingestion.DeviceRequests;
import io.tbactors.sample.iot.ingestion.DeviceSessionLink;
import io.tbactors.sample.iot.ingestion.DevicePayloadParser;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;

class MqttDeviceServerTest {

    private final Validator validator = Validation.buildDefaultValidatorFactory().getValidator();

    @Test
    void theDefaultsAreValid() {
        assertThat(validator.validate(new SampleProperties().getMqtt())).isEmpty();
    }

    @Test
    void settingsOutOfRangeAreRefusedNamingThePropertyAndWhatIsAllowed() {
        SampleProperties.Mqtt mqtt = new SampleProperties().getMqtt();
        mqtt.setPort(70_000);
        mqtt.setMaxInFlightPerConnection(0);
        mqtt.setIoThreads(0);
        mqtt.setBindAddress(" ");

        assertThat(messages(mqtt)).containsExactlyInAnyOrder(
                "sample.mqtt.port must be between 0 (a free port) and 65535",
                "sample.mqtt.max-in-flight-per-connection must be between 1 and 65535",
                "sample.mqtt.io-threads must be between 1 and 256",
                "sample.mqtt.bind-address must be an address of this machine, e.g. 0.0.0.0 or 127.0.0.1");
    }

    @Test
    void aPortInUseFailsTheStartSayingWhichPropertiesToChange() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            SampleProperties properties = new SampleProperties();
            properties.getMqtt().setBindAddress("127.0.0.1");
            properties.getMqtt().setPort(taken.getLocalPort());
            MqttDeviceServer server = new MqttDeviceServer(properties, mock(DevicePayloadParser.class),
                    mock(DeviceIngestion.class), mock(DeviceService.class), new IotStats(), new MqttMetrics(),
                    mock(DeviceSessionLink.class), mock(DeviceRequests.class),
                    new StandardEnvironment());

            assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("set sample.mqtt.port to a free port")
                    .hasMessageContaining("sample.mqtt.enabled=false");
            assertThat(server.isRunning()).isFalse();
        }
    }

    @Test
    void theServerIsLeftOutWhenSampleMqttEnabledIsFalse() {
        new ApplicationContextRunner().withPropertyValues("sample.mqtt.enabled=false")
                .withUserConfiguration(MqttDeviceServer.class, MqttMetrics.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(MqttDeviceServer.class).doesNotHaveBean(MqttMetrics.class);
                });
    }

    private Set<String> messages(SampleProperties.Mqtt mqtt) {
        return validator.validate(mqtt).stream().map(ConstraintViolation::getMessage).collect(Collectors.toSet());
    }
}
