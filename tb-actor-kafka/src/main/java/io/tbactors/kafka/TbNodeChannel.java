package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.util.concurrent.CompletableFuture;

/**
 * Messages between the nodes of the application rather than to an entity: a broadcast reaches every node's
 * {@link TbBroadcastListener} beans, this node's included; {@link #send} reaches one node's. Broadcast what every node
 * must hear (a rule chain changed, a device was deleted, a cache entry is stale). To reach an entity's owner and hear
 * when it is done, use {@link TbClusterRouter#request}.
 *
 * <p>With clustering off the broadcast goes to this node's listeners only; with it on, also to the inbox topic of every
 * other member of the consumer group (see the module's README).
 */
public interface TbNodeChannel {

    /** @return this node's name in the cluster */
    String getNodeId();

    /**
     * @param msg the message; with clustering on its type must be encodable by the cluster's codec
     * @return completes once this node's listeners have run and Kafka has the message for every other node that was
     *     a member of the group when it was sent; exceptionally, naming the nodes not reached, when it could not be
     *     written for some of them (this node's listeners have run even then)
     * @throws io.tbactors.kafka.codec.TbActorMsgEncodingException with clustering on, when the message's type cannot
     *     cross the wire
     */
    CompletableFuture<Void> broadcast(TbActorMsg msg);

    /**
     * Sends a message to one node's {@link TbBroadcastListener} beans: at once when it is this node, through that
     * node's inbox topic otherwise. For an answer to one node (the outcome of work it asked for, a push to a connection
     * it holds) without waking every other node. Kafka keeps what is written to the inbox of a node that has gone away
     * and nobody reads it: a sender that needs to know the message was handled waits for an answer of its own, with a
     * timeout.
     *
     * @param nodeId the node, as its {@link #getNodeId()} names it
     * @param msg the message; with clustering on its type must be encodable by the cluster's codec
     * @return completes once that node's listeners have run (this node) or Kafka has the message for it; exceptionally
     *     when it could not be written, or (clustering off) when the node is not this one
     * @throws io.tbactors.kafka.codec.TbActorMsgEncodingException with clustering on, when the message's type cannot
     *     cross the wire
     */
    CompletableFuture<Void> send(String nodeId, TbActorMsg msg);
}
