package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a message to an entity wherever the entity lives: to this node's root actor, as a {@link TbEntityMsg}, when
 * clustering is off or this node owns the entity's partition, otherwise as a Kafka record keyed by the entity id
 * that the owner consumes and hands to its root actor.
 */
public interface TbClusterRouter {

    /**
     * @param entityType the entity's type, such as {@code DEVICE}
     * @param entityId the entity's id; it picks the partition
     * @param msg the message for the entity; its type must be encodable by the cluster's codec
     * @return completes once the message is safe: processed, when delivered locally, or stored by Kafka, when
     *     sent to another node; completes exceptionally when it is neither (the message was not taken)
     * @throws io.tbactors.kafka.codec.TbActorMsgEncodingException with clustering on, when the message's type cannot
     *     cross the wire, whether or not this particular message would have stayed local
     */
    CompletableFuture<Void> send(String entityType, UUID entityId, TbActorMsg msg);

    /**
     * @param entityId an entity id
     * @return whether a message sent now for that entity would be delivered locally
     */
    boolean isLocal(UUID entityId);
}
