package io.tbactors.rule.actors.msg;

import java.util.List;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.TbMsg;

/**
 * A node actor's results for one pack, back to its chain actor, which routes each message along the connections
 * of its relations (gathering the messages that go to the same node into one pack again). If the chain's actor
 * drops it, every message in it counts as lost.
 *
 * @param nodeId the node that produced it
 * @param outputs one per message of the pack, in the pack's order
 */
public record RuleNodeOutputMsg(String nodeId, List<Output> outputs) implements TbActorMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        outputs.forEach(output -> output.msg().tracker().lost(reason));
    }

    /**
     * What the node did with one message.
     *
     * @param msg the message it passes on
     * @param relations the relations it leaves on
     * @param failure why the node failed, when it leaves on {@code Failure} because it failed; otherwise null
     */
    public record Output(TbMsg msg, List<String> relations, Throwable failure) {
    }
}
