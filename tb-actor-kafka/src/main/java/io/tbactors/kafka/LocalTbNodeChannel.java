package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The node channel of a single node ({@code tb.actors.cluster.enabled=false}): a broadcast reaches this node only. */
public class LocalTbNodeChannel implements TbNodeChannel {

    private final BroadcastListeners listeners;

    LocalTbNodeChannel(List<TbBroadcastListener> listeners) {
        this.listeners = new BroadcastListeners("local", listeners);
    }

    @Override
    public String getNodeId() {
        return "local";
    }

    @Override
    public CompletableFuture<Void> broadcast(TbActorMsg msg) {
        if (msg == null) {
            throw new IllegalArgumentException("msg must not be null");
        }
        listeners.deliver(msg);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> send(String nodeId, TbActorMsg msg) {
        if (msg == null) {
            throw new IllegalArgumentException("msg must not be null");
        }
        if (!getNodeId().equals(nodeId)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("No node '" + nodeId
                    + "': clustering is off (tb.actors.cluster.enabled=false), the only node is '" + getNodeId() + "'"));
        }
        listeners.deliver(msg);
        return CompletableFuture.completedFuture(null);
    }
}
