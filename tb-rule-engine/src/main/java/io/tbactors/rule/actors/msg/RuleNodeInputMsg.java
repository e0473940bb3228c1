package io.tbactors.rule.actors.msg;

import java.util.List;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.TbMsg;

/**
 * A chain actor hands a pack of messages to one of its node actors, which runs its node on each of them, in order,
 * in one turn. A device request's readings travel the chain as such packs (one per relation a node leaves on), so a
 * body of many readings costs a few actor hops, not a few per reading. If the node's actor drops the pack, every
 * message in it counts as lost.
 *
 * @param msgs the messages, in order; at least one
 */
public record RuleNodeInputMsg(List<TbMsg> msgs) implements TbActorMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        msgs.forEach(msg -> msg.tracker().lost(reason));
    }
}
