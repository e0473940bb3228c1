package io.tbactors.testkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.TbActorMsg;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.testkit.TbActorProbe;
import io.tbactors.testkit.TbActorProbes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

@SpringBootTest
@AutoConfigureTbActors
class AutoConfigureTbActorsTest {

    record Hello() implements TbActorMsg {
    }

    @SpringBootConfiguration
    static class App {
        @Bean(destroyMethod = "stop")
        DefaultTbActorSystem actorSystem(@Value("${tb.actors.shutdown-timeout}") Duration shutdownTimeout) {
            DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
                    .shutdownTimeout(shutdownTimeout).build());
            system.createDispatcher("default", DispatcherKind.FORK_JOIN, 1);
            return system;
        }
    }

    @Autowired
    private TbActorProbes probes;

    @Autowired
    private DefaultTbActorSystem system;

    @Value("${tb.actors.shutdown-timeout}")
    private String shutdownTimeout;

    @Test
    void theTestShutsTheActorsDownQuickly() {
        assertThat(shutdownTimeout).isEqualTo("1s");
        assertThat(system.getSettings().getShutdownTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void probesAreMadeInTheApplicationsActorSystem() {
        TbActorProbe probe = probes.spawn("listener");

        system.tell(probe.getActorId(), new Hello());

        assertThat(probe.expectMessage(Hello.class, Duration.ofSeconds(5))).isEqualTo(new Hello());
        assertThat(probes.getDispatcher()).isEqualTo("default");
        assertThat(probes.create("bare").getActorId().toString()).isEqualTo("bare");
    }
}
