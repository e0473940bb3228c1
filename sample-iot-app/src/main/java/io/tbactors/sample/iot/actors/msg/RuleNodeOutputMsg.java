package io.tbactors.sample.iot.actors.msg;

import java.util.List;

import io.tbactors.sample.iot.rule.TbMsg;

/**
 * A node actor's result, back to its chain actor, which routes it along the connections.
 *
 * @param nodeId the node that produced it
 * @param msg the message it passes on
 * @param relations the relations it leaves on
 */
public record RuleNodeOutputMsg(String nodeId, TbMsg msg, List<String> relations) implements RuleEngineMsg {
}
