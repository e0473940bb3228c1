package io.tbactors.rule.actors.msg;

import io.tbactors.rule.TbMsg;

/**
 * A device actor's message for its tenant's root rule chain: device actor to tenant actor to chain actor.
 *
 * @param msg the message
 */
public record ToRuleEngineMsg(TbMsg msg) implements RuleEngineMsg {
}
