package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.time.Duration;
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
     * Sends a message to an entity and waits until its owner, wherever it is, has processed it: as {@link #send}, but
     * a message sent through Kafka completes only when the owner's actor has completed its envelope (the owner
     * answers over the node channel), not when Kafka has it. The owner commits the record only after that.
     *
     * @param entityType the entity's type, such as {@code DEVICE}
     * @param entityId the entity's id; it picks the partition
     * @param msg the message for the entity; its type must be encodable by the cluster's codec
     * @param timeout how long to wait for the owner's answer; positive
     * @return completes once the owner processed the message; exceptionally with {@link TbClusterRemoteFailureException}
     *     when the owner gave it up (dead-lettered), {@link TbClusterReplyTimeoutException} when no answer came within
     *     the timeout (the outcome is unknown), or as {@link #send} does when it was not taken
     * @throws IllegalArgumentException when the timeout is not positive
     */
    CompletableFuture<Void> request(String entityType, UUID entityId, TbActorMsg msg, Duration timeout);

    /**
     * @return whether a message sent now for that entity would be delivered locally
     */
    boolean isLocal(UUID entityId);
}
