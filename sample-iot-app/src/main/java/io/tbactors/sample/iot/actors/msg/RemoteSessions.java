package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * The {@code cluster} profile's sessions and callers on other nodes, as the device actors on the device's owner node
 * see them: a session connected to another node stands in as a {@link DeviceSession} whose pushes go to that node, and
 * the outcome of a request goes back to the node whose caller waits for it.
 */
public interface RemoteSessions {

    /**
     * @param nodeId the node holding the session's connection
     * @param tenantId the device's tenant
     * @param sessionId the session
     * @param deviceId its device
     * @return the session itself when it is connected to this node (one that takes nothing when it has closed), else
     *     one whose pushes are sent to that node
     */
    DeviceSession session(String nodeId, UUID tenantId, UUID sessionId, UUID deviceId);

    /**
     * Sends a request's outcome to the node whose caller waits for it (completes it at once when that is this node).
     *
     * @param originNode the caller's node
     * @param rpcId the request
     * @param outcome how it ended
     */
    void outcome(String originNode, UUID rpcId, RpcOutcome outcome);
}
