package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The router of a single node ({@code tb.actors.cluster.enabled=false}): every message is told to the local root
 * actor, and the future completes once the entity's actor reports it processed. Code written against
 * {@link TbClusterRouter} runs unchanged when clustering is switched on.
 */
public class LocalTbClusterRouter implements TbClusterRouter {

    private final EntityDeliveries deliveries;

    LocalTbClusterRouter(EntityDeliveries deliveries) {
        this.deliveries = deliveries;
    }

    @Override
    public CompletableFuture<Void> send(String entityType, UUID entityId, TbActorMsg msg) {
        EntityDeliveries.requireValid(entityType, entityId, msg);
        return deliveries.deliverLocally(entityType, entityId, msg, -1, TbOwnershipEpoch.unclustered(), () -> { }, null);
    }

    @Override
    public CompletableFuture<Void> request(String entityType, UUID entityId, TbActorMsg msg, Duration timeout) {
        TbClusterReplies.requirePositive(timeout);
        return TbClusterReplies.bounded(send(entityType, entityId, msg), entityType + "|" + entityId, timeout);
    }

    @Override
    public boolean isLocal(UUID entityId) {
        return true;
    }
}
