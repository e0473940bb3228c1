package io.tbactors.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.TbStringActorId;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.spring.TestActors.DeviceMsg;
import io.tbactors.spring.TestActors.Outcomes;
import io.tbactors.spring.TestActors.RouterCreator;
import io.tbactors.testkit.TbActorProbe;
import io.tbactors.testkit.TbActorProbes;
import io.tbactors.testkit.spring.AutoConfigureTbActors;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/** The testkit's Spring support on an application of the starter: a short shutdown and probes among its actors. */
@SpringBootTest(properties = "spring.main.web-application-type=none")
@AutoConfigureTbActors
class TestkitWithTheStarterTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class DeviceApplication {
        @Bean
        RouterCreator rootActor() {
            return new RouterCreator();
        }
    }

    @Autowired
    private TbActorProbes probes;

    @Autowired
    private ActorSystemContext actors;

    @Autowired
    private TbActorSystemSettings settings;

    @Test
    void theApplicationsActorSystemShutsDownWithinTheTestsShortTimeout() {
        assertThat(settings.getShutdownTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aProbeStandsInForTheChildTheRootWouldCreate() {
        TbActorProbe device = probes.spawnChild(TestActors.deviceId("probed"), new TbStringActorId("router"));

        actors.tell(new DeviceMsg("probed", new Outcomes()));

        assertThat(device.expectMessage(DeviceMsg.class, Duration.ofSeconds(5)).device()).isEqualTo("probed");
        device.expectNoMessage(Duration.ofMillis(50));
    }
}
