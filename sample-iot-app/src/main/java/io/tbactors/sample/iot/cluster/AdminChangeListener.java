package io.tbactors.sample.iot.cluster;

import io.tbactors.api.TbActorMsg;

/**
 * Takes an admin change on this node before the actors are told: the owner of a cache implements it to evict what the
 * change made stale, so that the cache's name and keys stay with their owner and this package does not reach back
 * into the services that publish the changes.
 */
public interface AdminChangeListener {

    /**
     * @param change what {@link AdminChanges#publish} sent, on this node and every other one
     */
    void onAdminChange(TbActorMsg change);
}
