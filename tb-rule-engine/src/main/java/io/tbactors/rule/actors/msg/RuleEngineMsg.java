package io.tbactors.rule.actors.msg;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.TbMsg;

/**
 * A message that carries a rule-engine message between actors; if an actor drops it, the message counts as lost.
 */
public interface RuleEngineMsg extends TbActorMsg {

    /** @return the rule-engine message */
    TbMsg msg();

    @Override
    default void onTbActorStopped(TbActorStopReason reason) {
        msg().tracker().lost(reason);
    }
}
