package io.tbactors.rule.actors.msg;

import java.util.List;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.TbMsg;

/**
 * The rule-engine messages of one device request with several readings, in order, as one actor message from the
 * device actor through the tenant actor to the root chain actor (two hops a request instead of two a reading); the
 * chain actor hands each to its first node. If an actor drops it, every message in it counts as lost.
 *
 * @param msgs the messages, in the order of the request's readings
 */
public record ToRuleEnginePackMsg(List<TbMsg> msgs) implements TbActorMsg {

    @Override
    public void onTbActorStopped(TbActorStopReason reason) {
        msgs.forEach(msg -> msg.tracker().lost(reason));
    }
}
