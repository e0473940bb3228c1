package io.tbactors.spring.example.alarms;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;

/** A reading, with where its alarms go. */
record Reading(String device, double value, TbActorRef alarms) implements TbActorMsg {
}
