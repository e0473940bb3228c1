package io.tbactors.sample.iot.ingestion;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorMsg;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.FromDeviceRpcResponseMsg;
import io.tbactors.sample.iot.actors.msg.RpcDeliveryMsg;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.cluster.ClusterDeviceSessions;
import io.tbactors.sample.iot.actors.msg.ToServerRpcRequestMsg;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.spring.ActorSystemContext;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * What a transport's session tells its device's actor beside readings: its subscriptions (server-side RPC,
 * shared-attribute updates) and the device's answers. The device actor owns the sessions; a transport only registers
 * them here.
 */
@Slf4j
@Component
public class DeviceSessionLink {

    private final ActorSystemContext actorSystemContext;
    private ClusterDeviceSessions cluster;

    /** @param actorSystemContext takes the messages to the root actor */
    public DeviceSessionLink(ActorSystemContext actorSystemContext) {
        this.actorSystemContext = actorSystemContext;
    }

    /** @param cluster with the {@code cluster} profile, takes the messages to the device's owner node */
    @Autowired(required = false)
    void setCluster(ClusterDeviceSessions cluster) {
        this.cluster = cluster;
    }

    /**
     * @param device the session's device
     * @param session the session
     * @param topic what it subscribes to
     * @param subscribe subscribe (true) or give the subscription up (false, also when the session closes)
     * @return false when the actors are not running (starting or stopping): nothing was told
     */
    public boolean subscribe(Device device, DeviceSession session, SessionSubscribeMsg.Topic topic, boolean subscribe) {
        if (cluster != null) {
            cluster.subscribe(device.tenantId(), device.id(), session, topic, subscribe);
            return true;
        }
        return tell(new SessionSubscribeMsg(device.tenantId(), device.id(), session, topic, subscribe));
    }

    /**
     * @param device the device
     * @param requestId the id of the request it answers
     * @param response its answer as sent
     * @return false when the actors are not running: the answer was not taken
     */
    public boolean rpcResponse(Device device, int requestId, String response) {
        FromDeviceRpcResponseMsg answer = new FromDeviceRpcResponseMsg(device.tenantId(), device.id(), requestId, response);
        if (cluster != null) {
            cluster.tellOwner(answer);
            return true;
        }
        return tell(answer);
    }

    /**
     * @param device the device
     * @param sessionId the session that took a server-side RPC request and confirms its delivery
     * @param requestId the request
     * @param delivered whether the device acknowledged it (false: it did not reach the device)
     * @return false when the actors are not running: nothing was told
     */
    public boolean rpcDelivery(Device device, UUID sessionId, int requestId, boolean delivered) {
        RpcDeliveryMsg notice = new RpcDeliveryMsg(device.tenantId(), device.id(), sessionId, requestId, delivered);
        if (cluster != null) {
            cluster.tellOwner(notice);
            return true;
        }
        return tell(notice);
    }

    /**
     * A device's own RPC request, to its actor, which sends it through the tenant's root chain.
     *
     * @param device the device
     * @param sessionId the session that waits for the answer
     * @param requestId the request's id in that session
     * @param request what it asks
     * @return completes once: the chain's answer, the timeout, or the failure (not running: at once)
     */
    public CompletableFuture<RpcOutcome> clientRpc(Device device, UUID sessionId, int requestId,
                                                   DeviceRequests.ClientRpcRequest request) {
        CompletableFuture<RpcOutcome> reply = new CompletableFuture<>();
        ToServerRpcRequestMsg msg = new ToServerRpcRequestMsg(device.tenantId(), device.id(), sessionId, requestId,
                request.method(), request.params(), reply);
        if (cluster != null) {
            // the device's owner node runs its chain, whichever node the device is connected to
            cluster.clientRpc(msg);
            return reply;
        }
        if (!tell(msg)) {
            reply.complete(RpcOutcome.failed("the actors are not running (the node is starting or stopping); send it "
                    + "again later"));
        }
        return reply;
    }

    private boolean tell(TbActorMsg msg) {
        try {
            actorSystemContext.tell(msg);
            return true;
        } catch (IllegalStateException notRunning) {
            log.debug("Not told to the device actor, the actors are not running: {}", msg);
            return false;
        }
    }
}
