package io.tbactors.spring.example.start;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;

/** Creates the actor of one device, which stores its readings through the service. */
record DeviceActorCreator(TbActorId id, TelemetryService telemetry) implements TbActorCreator {

    @Override
    public TbActorId createActorId() {
        return id;
    }

    @Override
    public TbActor createActor() {
        return new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                if (msg instanceof TelemetryMsg reading) {
                    telemetry.save(reading.deviceId(), reading.temperature());
                    return true;
                }
                return false;
            }
        };
    }
}
