package io.tbactors.spring.example.start;

import static org.awaitility.Awaitility.await;

import io.tbactors.spring.ActorSystemContext;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;

/** The starter README's root actor, as written there, running in a Spring Boot application. */
@SpringBootTest(properties = "tb.actors.dispatchers.devices.type=single")
class GettingStartedExampleTest {

    @SpringBootApplication
    static class ExampleApp {
    }

    @Autowired
    ActorSystemContext actors;

    @Autowired
    TelemetryService telemetry;

    @Test
    void aReadingToldToTheRootReachesItsDeviceActorAndTheService() {
        UUID device = UUID.randomUUID();
        actors.tell(new TelemetryMsg(device, 21.5));
        await().until(() -> telemetry.stored().contains(device + "=21.5"));
    }
}
