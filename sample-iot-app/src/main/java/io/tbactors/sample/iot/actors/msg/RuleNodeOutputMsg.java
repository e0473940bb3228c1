package io.tbactors.sample.iot.actors.msg;

import java.util.List;

import io.tbactors.sample.iot.rule.TbMsg;

/**
 * A node actor's result, back to its chain actor, which routes it along the connections.
 *
 * @param nodeId the node that produced it
 * @param msg the message it passes on
 * @param relations the relations it leaves on
 * @param failure why the node failed, when it leaves on {@code Failure} because it failed; otherwise null
 */
public record RuleNodeOutputMsg(String nodeId, TbMsg msg, List<String> relations, Throwable failure) implements RuleEngineMsg {

    /**
     * A result that is not a node's failure.
     *
     * @param nodeId the node that produced it
     * @param msg the message it passes on
     * @param relations the relations it leaves on
     */
    public RuleNodeOutputMsg(String nodeId, TbMsg msg, List<String> relations) {
        this(nodeId, msg, relations, null);
    }
}
