package io.tbactors.kafka;

import io.tbactors.api.TbActorMsg;
import java.util.concurrent.CompletableFuture;

/**
 * Messages between the nodes of the application rather than to an entity: a broadcast reaches every node's
 * {@link TbBroadcastListener} beans, this node's included. Use it for what every node must hear (a rule chain
 * changed, a device was deleted, a cache entry is stale). To reach an entity's owner and hear when it is done, use
 * {@link TbClusterRouter#request}.
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
}
