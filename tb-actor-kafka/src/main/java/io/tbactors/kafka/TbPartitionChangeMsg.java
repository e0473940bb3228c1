package io.tbactors.kafka;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbEntityActorId;
import java.util.Set;
import java.util.UUID;

/**
 * Told with high priority to the root actor when this node's partitions change: after the records of revoked
 * partitions have finished (or the bounded wait ran out) and their offsets were committed, and after new partitions
 * were assigned. The root typically stops the actors of entities it no longer owns:
 *
 * <pre>{@code
 * ctx.filterChildren(change::isNotOwned).forEach(ctx::stop);
 * }</pre>
 *
 * Actors of newly owned entities need nothing: they are created on demand as their records arrive.
 *
 * @param owned the partitions this node owns now
 * @param revoked the partitions it has just given up (or lost), empty on an assignment
 * @param assigned the partitions it has just been given, empty on a revocation
 * @param partitionCount the topic's partition count
 */
public record TbPartitionChangeMsg(Set<Integer> owned, Set<Integer> revoked, Set<Integer> assigned, int partitionCount)
        implements TbActorMsg {

    /** Copies the sets, which stay as given. */
    public TbPartitionChangeMsg {
        owned = Set.copyOf(owned);
        revoked = Set.copyOf(revoked);
        assigned = Set.copyOf(assigned);
    }

    /**
     * @return whether this node owns the entity's partition
     */
    public boolean isOwned(UUID entityId) {
        return partitionCount > 0 && owned.contains(EntityPartitioner.partition(entityId, partitionCount));
    }

    /**
     * @return whether it is an entity's actor whose partition this node does not own (actors of other ids are kept)
     */
    public boolean isNotOwned(TbActorId actorId) {
        return actorId instanceof TbEntityActorId entity && !isOwned(entity.getEntityId());
    }
}
