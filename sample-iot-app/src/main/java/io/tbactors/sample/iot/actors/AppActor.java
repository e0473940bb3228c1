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
import io.tbactors.sample.iot.actors.msg.ClusterClientRpcRequest;
import io.tbactors.sample.iot.actors.msg.ClusterDeviceData;
import io.tbactors.sample.iot.actors.msg.ClusterRpcRequest;
import io.tbactors.sample.iot.actors.msg.ClusterSessionSubscribe;
import io.tbactors.sample.iot.actors.msg.DeviceAwareMsg;
import io.tbactors.sample.iot.actors.msg.RemoteSessions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

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
            if (entityMsg.discardIfObsolete()) {
                return true;
            }
            return entityMsg.getPayload() instanceof ClusterDeviceData ? process(ClusterDeviceData.unwrap(entityMsg))
                    : processDeviceCommand(entityMsg);
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

    /**
     * A command to a device (an RPC request, a session's subscription, answer or delivery notice, a device's own RPC
     * request, changed shared attributes) that
     * reached its owner node. Its record is done once the device's actor has it: a request's end is its outcome, which
     * goes back to the caller's node.
     */
    private boolean processDeviceCommand(TbEntityMsg entityMsg) {
        TbActorMsg payload = entityMsg.getPayload();
        RemoteSessions sessions = services.getRemoteSessions();
        TbActorMsg local;
        if (sessions == null) {
            entityMsg.onFailure(new IllegalStateException("A device command reached a node without the cluster profile"));
            return true;
        } else if (payload instanceof ClusterRpcRequest request) {
            local = request.toLocal(params(request.params()), sessions);
        } else if (payload instanceof ClusterClientRpcRequest request) {
            local = request.toLocal(request.params() == null ? null : params(request.params()), sessions);
        } else if (payload instanceof ClusterSessionSubscribe subscription) {
            local = subscription.toLocal(sessions);
        } else if (payload instanceof DeviceAwareMsg deviceMsg) {
            local = deviceMsg;
        } else {
            entityMsg.onFailure(new IllegalArgumentException("Not a device message: " + payload.getClass().getName()));
            return true;
        }
        entityMsg.onProcessed();
        return local == null || process(local);
    }

    private JsonNode params(String text) {
        try {
            return services.getJsonMapper().readTree(text);
        } catch (RuntimeException unreadable) {
            return JsonNodeFactory.instance.textNode(text);
        }
    }
}
