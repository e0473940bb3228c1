package io.tbactors.spring.example.start;

import io.tbactors.api.TbActorMsg;
import java.util.UUID;

/** A device's reading, told to the root actor by a service. */
record TelemetryMsg(UUID deviceId, double temperature) implements TbActorMsg {
}
