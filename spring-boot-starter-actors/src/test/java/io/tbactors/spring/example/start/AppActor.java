package io.tbactors.spring.example.start;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.spring.ActorSystemContext;

class AppActor extends AbstractTbActor {
    private final ActorSystemContext actors;

    AppActor(ActorSystemContext actors) {
        this.actors = actors;
    }

    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof TelemetryMsg telemetry) {
            TbActorId id = new TbEntityActorId("DEVICE", telemetry.deviceId());   // an entity id takes a UUID
            ctx.getOrCreateChildActor(id, () -> "devices",
                    () -> new DeviceActorCreator(id, actors.getBean(TelemetryService.class))).tell(msg);
            return true;
        }
        return false;
    }
}
