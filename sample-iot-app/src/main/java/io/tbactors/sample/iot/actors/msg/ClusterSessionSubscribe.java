package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

import io.tbactors.api.TbActorMsg;

/**
 * {@link SessionSubscribeMsg} on its way to the device's owner node (the {@code cluster} profile): the session is named
 * by its node and id, since the connection cannot cross the wire. The node holding the session sends it again every
 * {@code sample.rpc.session-refresh} and when partitions move; the owner forgets a session of another node that was not
 * refreshed within three of those.
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param sessionId the session
 * @param nodeId the node holding its connection
 * @param topic what it subscribes to
 * @param subscribe true to subscribe (or refresh), false to unsubscribe
 */
public record ClusterSessionSubscribe(UUID tenantId, UUID deviceId, UUID sessionId, String nodeId,
                                      SessionSubscribeMsg.Topic topic, boolean subscribe) implements TbActorMsg {

    /** Name of this type in the records, as registered under {@code tb.actors.cluster.message-types}. */
    public static final String TYPE = "session-subscribe";

    /**
     * @param sessions resolves the session
     * @return the subscription for the device's actor
     */
    public SessionSubscribeMsg toLocal(RemoteSessions sessions) {
        return new SessionSubscribeMsg(tenantId, deviceId, sessions.session(nodeId, tenantId, sessionId, deviceId), topic, subscribe);
    }
}
