package io.tbactors.spring.example.alarms;

import io.tbactors.api.TbActorMsg;

/** An alarm raised for a device. */
record AlarmRaised(String device) implements TbActorMsg {
}
