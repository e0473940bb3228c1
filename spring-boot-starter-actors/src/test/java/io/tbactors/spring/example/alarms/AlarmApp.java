package io.tbactors.spring.example.alarms;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbStringActorId;
import io.tbactors.spring.TbRootActorCreator;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** The application the testkit README's Spring example tests: a root actor that raises an alarm above 50. */
@SpringBootApplication
class AlarmApp {

    @Bean
    TbRootActorCreator root() {
        return TbRootActorCreator.of(new TbStringActorId("app"), () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                if (msg instanceof Reading reading && reading.value() > 50) {
                    reading.alarms().tell(new AlarmRaised(reading.device()));
                }
                return true;
            }
        });
    }
}
