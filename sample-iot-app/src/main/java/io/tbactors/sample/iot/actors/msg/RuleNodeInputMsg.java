package io.tbactors.sample.iot.actors.msg;

import io.tbactors.sample.iot.rule.TbMsg;

/**
 * A chain actor hands a message to one of its node actors.
 *
 * @param msg the message
 */
public record RuleNodeInputMsg(TbMsg msg) implements RuleEngineMsg {
}
