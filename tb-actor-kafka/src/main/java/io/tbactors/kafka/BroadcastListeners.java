package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.util.List;
import lombok.extern.slf4j.Slf4j;

/** Runs every listener on a broadcast; one that throws is logged and does not keep the message from the others. */
@Slf4j
final class BroadcastListeners {

    private final List<TbBroadcastListener> listeners;

    BroadcastListeners(List<TbBroadcastListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    void deliver(TbActorMsg msg) {
        for (TbBroadcastListener listener : listeners) {
            try {
                listener.onBroadcast(msg);
            } catch (RuntimeException e) {
                log.warn("Broadcast listener {} failed on {}", listener, msg.getClass().getName(), e);
            }
        }
    }
}
