package io.tbactors.kafka.it;

import io.tbactors.api.TbActorMsg;

/**
 * A device reading of the test application: its sequence number within the device.
 *
 * @param seq the sequence number, from 1
 */
public record Reading(int seq) implements TbActorMsg {
}
