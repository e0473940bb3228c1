package io.tbactors.sample.iot.actors;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.kafka.TbEntityMsg;
import io.tbactors.kafka.TbPartitionChangeMsg;
import io.tbactors.sample.iot.actors.msg.TenantAwareMsg;
import io.tbactors.sample.iot.actors.msg.ClusterDeviceData;

/**
 * The root actor: routes each message to its tenant's actor, creating it on first use.
 */
public class AppActor extends AbstractTbActor {

    private final IotActorServices services;

    /** @param services the services handed to the tenant actors */
    public AppActor(IotActorServices services) {
        this.services = services;
    }

    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof TbEntityMsg entityMsg) {
            // the cluster profile: a device message that reached the device's owner node
            return entityMsg.discardIfObsolete() || process(ClusterDeviceData.unwrap(entityMsg));
        }
        if (msg instanceof TbPartitionChangeMsg change) {
            ctx.broadcastToChildren(change, true);
            return true;
        }
        if (msg instanceof TenantAwareMsg tenantMsg) {
            TbActorRef tenant;
            try {
                TbActorId id = IotActorIds.tenant(tenantMsg.tenantId());
                tenant = ctx.getOrCreateChildActor(id, () -> IotDispatchers.TENANT,
                        () -> TbActorCreator.of(id, () -> new TenantActor(services, tenantMsg.tenantId())));
            } catch (IllegalStateException stopping) {
                // the actor system refuses new actors while it stops: the message will never be processed
                tenantMsg.onTbActorStopped(TbActorStopReason.STOPPED);
                return true;
            }
            if (tenantMsg.highPriority()) {
                tenant.tellWithHighPriority(tenantMsg);
            } else {
                tenant.tell(tenantMsg);
            }
            return true;
        }
        return false;
    }
}
