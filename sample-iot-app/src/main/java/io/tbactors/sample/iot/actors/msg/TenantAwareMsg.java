package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

import io.tbactors.api.TbActorMsg;

/**
 * A message the application actor routes to a tenant's actor.
 */
public interface TenantAwareMsg extends TbActorMsg {

    /** @return the tenant whose actor gets the message */
    UUID tenantId();

    /** @return whether it jumps the normal-priority queue on its way (control messages do) */
    default boolean highPriority() {
        return false;
    }
}
