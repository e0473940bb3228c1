package io.tbactors.spring.example.alarms;

import io.tbactors.spring.ActorSystemContext;
import io.tbactors.testkit.TbActorProbe;
import io.tbactors.testkit.TbActorProbes;
import io.tbactors.testkit.spring.AutoConfigureTbActors;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest
@AutoConfigureTbActors
class AlarmFlowTest {

    @Autowired ActorSystemContext actors;
    @Autowired TbActorProbes probes;

    @Test
    void aHighReadingRaisesAnAlarm() {
        TbActorProbe alarms = probes.spawn("alarms");
        actors.tell(new Reading("device-1", 99.0, alarms));
        alarms.expectMessage(AlarmRaised.class, Duration.ofSeconds(5));
    }
}
