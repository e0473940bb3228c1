package io.tbactors.core.readme;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public final class QuickStart {

    private static final Logger log = LoggerFactory.getLogger(QuickStart.class);

    record TelemetryMsg(double temperature) implements TbActorMsg { }

    record ConfigUpdateMsg(double alarmAbove) implements TbActorMsg { }

    static class DeviceActor extends AbstractTbActor {
        private double alarmAbove = 30;

        @Override
        public boolean process(TbActorMsg msg) {
            if (msg instanceof ConfigUpdateMsg update) {
                alarmAbove = update.alarmAbove();
            } else if (msg instanceof TelemetryMsg telemetry && telemetry.temperature() > alarmAbove) {
                log.warn("{}: too hot, {}", ctx.getSelf(), telemetry.temperature());
            }
            return true;
        }
    }

    private QuickStart() {
    }

    public static void main(String[] args) {
        // throughput per turn, scheduler threads, init attempts (ThingsBoard's three settings)
        DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 10));
        system.createDispatcher("device", DispatcherKind.FORK_JOIN, 4);   // or SINGLE, VIRTUAL (Java 21+)

        UUID deviceId = UUID.randomUUID();
        TbActorRef device = system.createRootActor("device",
                TbActorCreator.of(new TbEntityActorId("DEVICE", deviceId), DeviceActor::new));
        device.tell(new TelemetryMsg(21.5));
        device.tellWithHighPriority(new ConfigUpdateMsg(20));   // high priority: processed before waiting telemetry
        device.tell(new TelemetryMsg(22.0));

        system.stop();   // destroys every actor, tells undelivered messages; bounded by the shutdown timeout
    }
}
