package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.rule.TbMsg;

/**
 * What a rule node does with one message. Called by its actor, one message at a time, so an implementation may
 * keep state without locks. Throwing routes the message on {@code Failure}; it never stops the actor.
 */
public interface RuleNode {

    /**
     * @param msg the message
     * @return the message to pass on (the same or a changed copy) and the relations it leaves on
     * @throws Exception when the message cannot be processed
     */
    RuleNodeResult onMsg(TbMsg msg) throws Exception;
}
