package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;

/**
 * Hears the messages broadcast over the {@link TbNodeChannel} by any node, this one included. Declare it as a bean.
 * It runs on the thread that reads this node's inbox (or, for this node's own broadcasts, the broadcasting thread):
 * keep it short, or hand the work to an actor.
 */
@FunctionalInterface
public interface TbBroadcastListener {

    /** @param msg the message broadcast */
    void onBroadcast(TbActorMsg msg);
}
