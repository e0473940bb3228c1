package io.tbactors.rule.actors.msg;

import io.tbactors.api.TbActorMsg;

/**
 * Told (with normal priority) to a node actor of a replaced chain version: it stops once it has processed
 * every message queued before this one, so an update loses nothing in flight.
 */
public record RetireRuleNodeMsg() implements TbActorMsg {
}
