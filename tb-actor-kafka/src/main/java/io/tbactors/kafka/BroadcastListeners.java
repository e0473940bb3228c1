package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.util.List;
import lombok.extern.slf4j.Slf4j;

/** Runs every listener on a broadcast; one that throws is logged and does not keep the message from the others. */
@Slf4j
final class BroadcastListeners {

    private final String node;
    private final List<TbBroadcastListener> listeners;

    /**
     * @param node this node's name, the prefix of the log lines
     * @param listeners run in this order
     */
    BroadcastListeners(String node, List<TbBroadcastListener> listeners) {
        this.node = node;
        this.listeners = List.copyOf(listeners);
    }

    void deliver(TbActorMsg msg) {
        for (TbBroadcastListener listener : listeners) {
            try {
                listener.onBroadcast(msg);
            } catch (RuntimeException e) {
                log.warn("[{}] Broadcast listener {} failed on {}", node, listener, msg.getClass().getName(), e);
            }
        }
    }
}
