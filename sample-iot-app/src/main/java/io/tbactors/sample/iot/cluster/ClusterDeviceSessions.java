package io.tbactors.sample.iot.cluster;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.tbactors.api.TbActorMsg;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbBroadcastListener;
import io.tbactors.kafka.TbClusterRouter;
import io.tbactors.kafka.TbNodeChannel;
import io.tbactors.sample.iot.actors.IotActorIds;
import io.tbactors.sample.iot.actors.msg.ClusterClientRpcRequest;
import io.tbactors.sample.iot.actors.msg.ClusterRpcOutcome;
import io.tbactors.sample.iot.actors.msg.ClusterRpcRequest;
import io.tbactors.sample.iot.actors.msg.ClusterSessionSubscribe;
import io.tbactors.sample.iot.actors.msg.DeviceAwareMsg;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.RemoteSessions;
import io.tbactors.sample.iot.actors.msg.RpcDeliveryMsg;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.actors.msg.ToRemoteSessionMsg;
import io.tbactors.sample.iot.actors.msg.ToServerRpcRequestMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.stats.IotStats;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Commands to devices across the nodes of the {@code cluster} profile. Every command (an RPC request, a session's
 * subscription or answer, changed shared attributes) goes to the device's owner node through the router, as readings
 * do, and the device's actor there owns the sessions and requests as on one node. A session connected to another
 * node is registered there by node and id: the actor's pushes to it come to this node over the node channel and are
 * handed to the connection here. A request's outcome goes back over the node channel to the node whose caller waits;
 * that node ends the call itself, by the request's timeout and a margin, if no outcome comes (the owner went away).
 *
 * <p>This node tells the owners again which of its sessions subscribe every {@code sample.rpc.session-refresh} and at
 * once when partitions move (a new owner learns them), and unsubscribes them all when it stops. An owner forgets a
 * session of another node not heard of for three refreshes, so a node that died without a word is forgotten too; until
 * then a push to it is lost, and the requests sent end by their timeout as for a device that went silent.
 */
@Slf4j
@Component
@Profile("cluster")
public class ClusterDeviceSessions implements RemoteSessions, TbBroadcastListener, SmartLifecycle, DisposableBean {

    /** After the request's own timeout, how long the caller's node waits for the owner's outcome before ending the call. */
    static final long OUTCOME_MARGIN_MS = 5_000;

    private final TbClusterRouter router;
    private final TbNodeChannel channel;
    private final ObjectProvider<KafkaClusterMember> member;
    private final IotStats stats;
    private final JsonMapper jsonMapper;
    private final Duration refresh;
    private final long clientSideTimeoutMs;
    private final Map<UUID, LocalSession> sessions = new ConcurrentHashMap<>();
    private final Map<UUID, CompletableFuture<RpcOutcome>> waiting = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor sender = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "sample-cluster-sessions");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean running;
    private volatile boolean stopped;

    /** A session connected to this node and what it subscribes to. */
    private record LocalSession(UUID tenantId, UUID deviceId, DeviceSession session, Set<SessionSubscribeMsg.Topic> topics) {
    }

    /**
     * @param router takes commands to the devices' owners; lazy, as the channel: the router needs the channel, which
     *     lists this bean among its listeners
     * @param channel carries pushes and outcomes between nodes; lazy, since it lists this bean among its listeners
     * @param member tells when partitions move
     * @param stats counts what fails
     * @param jsonMapper reads the JSON that crossed the wire
     * @param properties {@code sample.rpc.session-refresh} and {@code sample.rpc.client-side-timeout}
     */
    public ClusterDeviceSessions(@Lazy TbClusterRouter router, @Lazy TbNodeChannel channel, ObjectProvider<KafkaClusterMember> member,
                                 IotStats stats, JsonMapper jsonMapper, SampleProperties properties) {
        this.router = router;
        this.channel = channel;
        this.member = member;
        this.stats = stats;
        this.jsonMapper = jsonMapper;
        this.refresh = properties.getRpc().getSessionRefresh();
        this.clientSideTimeoutMs = properties.getRpc().getClientSideTimeout().toMillis();
        sender.setRemoveOnCancelPolicy(true);
    }

    // ---- this node's sessions and callers -------------------------------------------------------------------------

    /**
     * A session of this node subscribes or unsubscribes: registered here, told to the device's owner.
     *
     * @param tenantId the device's tenant
     * @param deviceId the device
     * @param session its session on this node
     * @param topic what it subscribes to
     * @param subscribe subscribe, or give it up
     */
    public void subscribe(UUID tenantId, UUID deviceId, DeviceSession session, SessionSubscribeMsg.Topic topic, boolean subscribe) {
        if (stopped) {
            // this node told the owners its sessions went when it stopped
            return;
        }
        UUID sessionId = session.sessionId();
        if (subscribe) {
            sessions.computeIfAbsent(sessionId, id -> new LocalSession(tenantId, deviceId, session, ConcurrentHashMap.newKeySet()))
                    .topics().add(topic);
        } else {
            sessions.computeIfPresent(sessionId, (id, local) -> {
                local.topics().remove(topic);
                return local.topics().isEmpty() ? null : local;
            });
        }
        tellOwner(deviceId, new ClusterSessionSubscribe(tenantId, deviceId, sessionId, channel.getNodeId(), topic,
                subscribe), "the subscription of session " + sessionId);
    }

    /**
     * @param msg a device's answer, or changed shared attributes, for the device's actor on its owner node
     */
    public void tellOwner(DeviceAwareMsg msg) {
        tellOwner(msg.deviceId(), msg, msg.getClass().getSimpleName());
    }

    /**
     * Sends a request to the device's owner. A request not persisted is waited for here: its outcome comes back from the
     * owner, or, when none comes within its timeout and {@link #OUTCOME_MARGIN_MS}, it ends as timed out here.
     *
     * @param msg the request, whose outcome the caller waits for
     */
    public void request(ToDeviceRpcMsg msg) {
        if (!msg.persistent()) {
            awaitOutcome(msg.rpcId(), msg.outcome(), msg.timeoutMs() + OUTCOME_MARGIN_MS, "RPC request " + msg.rpcId(),
                    msg.deviceId());
        }
        sendToOwner(msg.deviceId(), ClusterRpcRequest.of(msg, channel.getNodeId())).whenComplete((ok, error) -> {
            if (error == null) {
                return;
            }
            stats.rpcClusterFailure("not-sent");
            if (msg.persistent()) {
                log.warn("Persistent RPC request {} to device {} is stored but its owner node was not told ({}); it stays QUEUED "
                        + "and is sent when the device's actor starts again", msg.rpcId(), msg.deviceId(), error.toString());
            } else {
                log.warn("RPC request {} to device {} was not taken by the cluster: {}", msg.rpcId(), msg.deviceId(), error.toString());
                msg.outcome().complete(RpcOutcome.failed("the request did not reach the node that owns device " + msg.deviceId()
                        + " (" + error.getMessage() + "); send it again"));
            }
        });
    }

    /**
     * Sends a device's own RPC request (client-side RPC) to the device's owner, whose device actor sends it through the
     * tenant's root chain; the chain's answer comes back here, or, when none comes within the client-side timeout and
     * {@link #OUTCOME_MARGIN_MS}, the request ends as timed out here.
     *
     * @param msg the request, whose reply the device's session waits for
     */
    public void clientRpc(ToServerRpcRequestMsg msg) {
        UUID callId = UUID.randomUUID();
        awaitOutcome(callId, msg.reply(), clientSideTimeoutMs + OUTCOME_MARGIN_MS, "RPC request " + msg.requestId()
                + " of session " + msg.sessionId(), msg.deviceId());
        sendToOwner(msg.deviceId(), ClusterClientRpcRequest.of(msg, callId, channel.getNodeId())).whenComplete((ok, error) -> {
            if (error != null) {
                stats.rpcClusterFailure("not-sent");
                log.warn("RPC request {} of device {} was not taken by the cluster: {}", msg.requestId(), msg.deviceId(),
                        error.toString());
                msg.reply().complete(RpcOutcome.failed("the request did not reach the node that owns device "
                        + msg.deviceId() + " (" + error.getMessage() + "); send it again"));
            }
        });
    }

    /**
     * Keeps a call waiting here for the outcome the owner sends back; ends it as timed out when none came in time.
     *
     * @param callId names the call in the outcome
     * @param outcome the call's outcome
     * @param waitMs how long to wait for it
     * @param what the request, for the log
     * @param deviceId its device
     */
    private void awaitOutcome(UUID callId, CompletableFuture<RpcOutcome> outcome, long waitMs, String what, UUID deviceId) {
        waiting.put(callId, outcome);
        ScheduledFuture<?> backstop = sender.schedule(() -> {
            if (waiting.remove(callId, outcome) && !outcome.isDone()) {
                // counted and logged before the call ends, so that whoever sees it ended sees it counted too
                stats.rpcClusterFailure("no-outcome");
                log.warn("{} to device {}: no outcome from the device's owner node within {} ms; the call ends as timed out",
                        what, deviceId, waitMs);
                outcome.complete(RpcOutcome.timeout("no outcome came back from the node that owns device " + deviceId
                        + " within " + waitMs + " ms (the request's timeout and " + OUTCOME_MARGIN_MS + " ms): that node may "
                        + "have stopped, or the request is still on its way"));
            }
        }, waitMs, TimeUnit.MILLISECONDS);
        outcome.whenComplete((ended, error) -> {
            waiting.remove(callId, outcome);
            // a request may wait up to sample.rpc.max-timeout: its timer leaves the queue when it ends first
            backstop.cancel(false);
        });
    }

    private CompletableFuture<Void> sendToOwner(UUID deviceId, TbActorMsg msg) {
        try {
            return router.send(IotActorIds.DEVICE, deviceId, msg);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void tellOwner(UUID deviceId, TbActorMsg msg, String what) {
        sendToOwner(deviceId, msg).whenComplete((ok, error) -> {
            if (error != null) {
                stats.rpcClusterFailure("not-sent");
                log.warn("{} of device {} did not reach the device's owner node: {}", what, deviceId, error.toString());
            }
        });
    }

    @Override
    public void onBroadcast(TbActorMsg msg) {
        if (msg instanceof ToRemoteSessionMsg push) {
            deliver(push);
        } else if (msg instanceof ClusterRpcOutcome ended) {
            CompletableFuture<RpcOutcome> outcome = waiting.remove(ended.rpcId());
            if (outcome != null) {
                outcome.complete(ended.outcome());
            } else {
                log.debug("Outcome of RPC request {} came after its call ended here: dropped", ended.rpcId());
            }
        }
    }

    /** A push from a device's actor on its owner node to a session of this node. */
    private void deliver(ToRemoteSessionMsg push) {
        LocalSession local = sessions.get(push.sessionId());
        JsonNode body = read(push.body());
        boolean rpc = push.method() != null;
        boolean taken = local != null && (rpc
                ? local.session().sendRpcRequest(push.requestId(), push.method(), body)
                : local.session().sendAttributesUpdate(body));
        if (taken) {
            if (rpc && !local.session().confirmsRpcDelivery()) {
                // the owner's actor waits for this node's word (its proxy confirms delivery): written is delivered at
                // MQTT QoS 0; a session that confirms tells the owner itself, on the device's acknowledgement
                tellOwner(new RpcDeliveryMsg(push.tenantId(), push.deviceId(), push.sessionId(), push.requestId(), true));
            }
            return;
        }
        stats.rpcClusterFailure("session-gone");
        log.warn("{} for device {} reached this node after its session {} closed: not delivered", push.method() != null
                ? "RPC request " + push.requestId() : "An attribute update", push.deviceId(), push.sessionId());
        // the owner forgets it at once rather than when its registration runs out (it may have been refreshed just as
        // it closed)
        sessions.remove(push.sessionId());
        for (SessionSubscribeMsg.Topic topic : SessionSubscribeMsg.Topic.values()) {
            tellOwner(push.deviceId(), new ClusterSessionSubscribe(push.tenantId(), push.deviceId(), push.sessionId(),
                    channel.getNodeId(), topic, false), "the unsubscription of closed session " + push.sessionId());
        }
        if (rpc) {
            // after the unsubscriptions (the same partition keeps their order): the request waits for another session
            tellOwner(new RpcDeliveryMsg(push.tenantId(), push.deviceId(), push.sessionId(), push.requestId(), false));
        }
    }

    private JsonNode read(String json) {
        try {
            return jsonMapper.readTree(json);
        } catch (RuntimeException unreadable) {
            return JsonNodeFactory.instance.textNode(json);
        }
    }

    // ---- as the owner's device actors see the other nodes ---------------------------------------------------------

    @Override
    public DeviceSession session(String nodeId, UUID tenantId, UUID sessionId, UUID deviceId) {
        if (channel.getNodeId().equals(nodeId)) {
            LocalSession local = sessions.get(sessionId);
            return local != null ? local.session() : new ClosedSession(sessionId);
        }
        return new RemoteSession(nodeId, tenantId, sessionId, deviceId, System.nanoTime() + 3 * refresh.toNanos());
    }

    @Override
    public void outcome(String originNode, UUID rpcId, RpcOutcome outcome) {
        if (channel.getNodeId().equals(originNode)) {
            CompletableFuture<RpcOutcome> waitingHere = waiting.remove(rpcId);
            if (waitingHere != null) {
                waitingHere.complete(outcome);
            }
            return;
        }
        // called on the device actor's thread: Kafka's producer may block while the broker is unreachable
        sender.execute(() -> push(originNode, new ClusterRpcOutcome(rpcId, outcome), "outcome-not-returned",
                "The outcome of RPC request " + rpcId));
    }

    private void push(String nodeId, TbActorMsg msg, String failure, String what) {
        CompletableFuture<Void> sent;
        try {
            sent = channel.send(nodeId, msg);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((ok, error) -> {
            if (error != null) {
                stats.rpcClusterFailure(failure);
                log.warn("{} was not sent to node '{}': {}", what, nodeId, error.toString());
            }
        });
    }

    /**
     * A session connected to another node, as a device actor on this node holds it. It stands until three refreshes
     * have passed since its registration; a newer registration replaces it.
     */
    private final class RemoteSession implements DeviceSession {

        private final String nodeId;
        private final UUID tenantId;
        private final UUID sessionId;
        private final UUID deviceId;
        private final long expiresAtNanos;

        private RemoteSession(String nodeId, UUID tenantId, UUID sessionId, UUID deviceId, long expiresAtNanos) {
            this.nodeId = nodeId;
            this.tenantId = tenantId;
            this.sessionId = sessionId;
            this.deviceId = deviceId;
            this.expiresAtNanos = expiresAtNanos;
        }

        @Override
        public UUID sessionId() {
            return sessionId;
        }

        @Override
        public boolean sendRpcRequest(int requestId, String method, JsonNode params) {
            return pushIfCurrent(new ToRemoteSessionMsg(tenantId, sessionId, deviceId, requestId, method, params.toString()),
                    "RPC request " + requestId + " to device " + deviceId);
        }

        /** The session's node tells when the device has it (or that it never reached it): {@link RpcDeliveryMsg}. */
        @Override
        public boolean confirmsRpcDelivery() {
            return true;
        }

        @Override
        public boolean sendAttributesUpdate(JsonNode changed) {
            return pushIfCurrent(new ToRemoteSessionMsg(tenantId, sessionId, deviceId, 0, null, changed.toString()),
                    "An attribute update of device " + deviceId);
        }

        private boolean pushIfCurrent(ToRemoteSessionMsg msg, String what) {
            if (System.nanoTime() - expiresAtNanos > 0) {
                log.info("Session {} of device {} on node '{}' was not refreshed in time: forgotten (the node may have gone away)",
                        sessionId, deviceId, nodeId);
                return false;
            }
            sender.execute(() -> push(nodeId, msg, "push-failed", what));
            return true;
        }
    }

    /** A session of this node that has closed, as its last unsubscription names it: it takes nothing. */
    private record ClosedSession(UUID sessionId) implements DeviceSession {

        @Override
        public boolean sendRpcRequest(int requestId, String method, JsonNode params) {
            return false;
        }

        @Override
        public boolean sendAttributesUpdate(JsonNode changed) {
            return false;
        }
    }

    // ---- lifecycle ------------------------------------------------------------------------------------------------

    private void refreshAll() {
        tellOwnersOfAll(true);
    }

    /** @param subscribe whether to tell the owners of every session of this node again (true) or that they go (false) */
    private void tellOwnersOfAll(boolean subscribe) {
        sessions.values().forEach(local -> local.topics().forEach(topic -> tellOwner(local.deviceId(),
                new ClusterSessionSubscribe(local.tenantId(), local.deviceId(), local.session().sessionId(),
                        channel.getNodeId(), topic, subscribe), (subscribe ? "the refreshed subscription" : "the unsubscription")
                        + " of session " + local.session().sessionId())));
    }

    @Override
    public void start() {
        running = true;
        long period = refresh.toMillis();
        sender.scheduleWithFixedDelay(() -> {
            if (running) {
                refreshAll();
            }
        }, period, period, TimeUnit.MILLISECONDS);
        KafkaClusterMember clusterMember = member.getIfAvailable();
        if (clusterMember != null) {
            // the devices of moved partitions have new owners: tell them at once
            clusterMember.addAssignmentListener(() -> sender.execute(() -> {
                if (running) {
                    refreshAll();
                }
            }));
        }
    }

    /** Tells the owners that this node's sessions go, before this node leaves the group (the owners stop pushing to them). */
    @Override
    public void stop() {
        running = false;
        stopped = true;
        tellOwnersOfAll(false);
        sessions.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the cluster member leaves the group (its phase is lower), while the router still sends. */
    @Override
    public int getPhase() {
        return KafkaClusterMember.PHASE + 256;
    }

    @Override
    public void destroy() {
        sender.shutdownNow();
        waiting.values().forEach(outcome -> outcome.complete(RpcOutcome.failed("this node stopped before the outcome came back")));
    }
}
