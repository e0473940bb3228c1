package io.tbactors.sample.iot.actors;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.tbactors.api.TbTimer;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.FromDeviceRpcResponseMsg;
import io.tbactors.sample.iot.actors.msg.RpcDeliveryMsg;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.RpcStatus;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.stats.IotStats;
import lombok.extern.slf4j.Slf4j;

/**
 * A device actor's sessions subscribed to RPC and its server-side RPC requests waiting for a session or an answer.
 * Used on the actor's thread only. Every request it takes ends exactly once: answered, delivered (one-way), timed out,
 * or failed with a reason; a request past {@code maxPending} waiting ones is refused at once. A request is delivered
 * when a session that does not confirm delivery takes it (MQTT QoS 0: written), or when a session that does
 * ({@link DeviceSession#confirmsRpcDelivery()}: MQTT QoS 1, HTTP long polls) says the device has it; one whose
 * confirming sessions all lost it waits for the next session.
 */
@Slf4j
final class DeviceRpcs {

    /** Schedules a request's timeout as a message to the actor itself. */
    interface Timers {

        /**
         * @param requestId the request
         * @param delayMs after how long
         * @return the timer, cancelled when the request ends first
         */
        TbTimer schedule(int requestId, long delayMs);
    }

    /** Stores the states of persistent requests. */
    interface States {

        /**
         * @param request a persistent request
         * @param status its new state
         * @param outcome how it ended, or null while it goes on
         */
        void changed(ToDeviceRpcMsg request, RpcStatus status, RpcOutcome outcome);
    }

    private final UUID deviceId;
    private final int maxPending;
    private final IotStats stats;
    private final Timers timers;
    private final States states;
    private final Map<UUID, DeviceSession> subscribed = new LinkedHashMap<>();
    private final Map<Integer, Pending> pending = new LinkedHashMap<>();
    private int lastRequestId;

    DeviceRpcs(UUID deviceId, int maxPending, IotStats stats, Timers timers, States states) {
        this.deviceId = deviceId;
        this.maxPending = maxPending;
        this.stats = stats;
        this.timers = timers;
        this.states = states;
    }

    void onRequest(ToDeviceRpcMsg msg) {
        if (msg.persistent() && isPending(msg.rpcId())) {
            // a persistent request restored from the table when this actor started, and its message arriving after
            // (or a record delivered again in the cluster profile): it is the same request, sent once
            log.debug("Device {}: persistent RPC request {} is already waiting; the copy is ignored", deviceId, msg.rpcId());
            return;
        }
        if (pending.size() >= maxPending) {
            end(msg, RpcOutcome.refused("device " + deviceId + " already has " + pending.size() + " RPC request(s) waiting "
                    + "for a session or an answer, the most it keeps (sample.rpc.max-pending-per-device); send it again later"));
            return;
        }
        long untilExpiration = msg.expirationTime() - System.currentTimeMillis();
        if (msg.persistent() && untilExpiration <= 0) {
            end(msg, new RpcOutcome(RpcStatus.EXPIRED, null, "its expiration time passed before a session of device "
                    + deviceId + " subscribed to RPC", false));
            return;
        }
        lastRequestId = lastRequestId == Integer.MAX_VALUE ? 1 : lastRequestId + 1;
        Pending request = new Pending(lastRequestId, msg);
        send(request);
        if (request.delivered && msg.oneway()) {
            end(msg, RpcOutcome.delivered());
            return;
        }
        // not sent yet, not yet acknowledged, or two-way: it waits for a session to subscribe (at most its timeout, or
        // until a persistent request expires), then for the acknowledgement or the answer (at most its timeout)
        request.timer = timers.schedule(request.requestId, msg.persistent() && !request.sent ? untilExpiration
                : msg.timeoutMs());
        pending.put(request.requestId, request);
    }

    /** @param msg a subscription to {@link SessionSubscribeMsg.Topic#RPC} */
    void onSubscription(SessionSubscribeMsg msg) {
        if (!msg.subscribe()) {
            subscribed.remove(msg.session().sessionId());
            return;
        }
        subscribed.put(msg.session().sessionId(), msg.session());
        // requests that waited for a session go out now, oldest first
        Iterator<Pending> waiting = pending.values().iterator();
        while (waiting.hasNext()) {
            Pending request = waiting.next();
            if (!request.sent && request.sendTo(msg.session())) {
                if (request.delivered && request.msg.oneway()) {
                    waiting.remove();
                    request.timer.cancel();
                    end(request.msg, RpcOutcome.delivered());
                } else if (request.msg.persistent()) {
                    // it waited for a session until its expiration; now it waits for the acknowledgement or the
                    // answer, its timeout
                    request.timer.cancel();
                    request.timer = timers.schedule(request.requestId, request.msg.timeoutMs());
                }
            }
        }
    }

    /**
     * A session that confirms delivery tells what became of a request it took: acknowledged by the device, or lost
     * with the connection (the request then waits for the next session: delivery is at least once).
     *
     * @param msg the session's notice
     */
    void onDelivery(RpcDeliveryMsg msg) {
        Pending request = pending.get(msg.requestId());
        if (request == null || !request.awaiting.remove(msg.sessionId())) {
            log.debug("Device {}: delivery notice ({}) for RPC request {}, which no longer waits for it", deviceId,
                    msg.delivered(), msg.requestId());
            return;
        }
        if (msg.delivered()) {
            request.delivered();
        } else if (request.awaiting.isEmpty() && !request.delivered) {
            // the session closed before the device had it: the next session (or another one subscribed now) gets it
            request.sent = false;
            send(request);
        }
        if (request.delivered && request.msg.oneway()) {
            pending.remove(request.requestId);
            request.timer.cancel();
            end(request.msg, RpcOutcome.delivered());
        }
    }

    /** @return whether the answer ended a waiting request (false: unknown id, or it already timed out) */
    boolean onResponse(FromDeviceRpcResponseMsg msg) {
        Pending request = pending.get(msg.requestId());
        if (request == null || request.msg.oneway()) {
            stats.rpcLateResponse();
            log.debug("Device {} answered RPC request {}, which is not waiting (timed out, one-way or unknown): "
                    + "answer dropped", deviceId, msg.requestId());
            return false;
        }
        pending.remove(msg.requestId());
        request.timer.cancel();
        end(request.msg, RpcOutcome.successful(msg.response()));
        return true;
    }

    void onTimeout(int requestId) {
        Pending request = pending.remove(requestId);
        if (request == null) {
            // answered first: its timer's message was already queued when the answer cancelled it
            return;
        }
        if (!request.sent && request.msg.persistent()) {
            end(request.msg, new RpcOutcome(RpcStatus.EXPIRED, null, "no session of device " + deviceId
                    + " subscribed to RPC before its expiration time", false));
            return;
        }
        String what = !request.sent ? "no session of device " + deviceId + " subscribed to RPC"
                : request.msg.oneway() ? "device " + deviceId + " did not acknowledge the request (MQTT PUBACK)"
                : "device " + deviceId + " did not answer";
        end(request.msg, RpcOutcome.timeout(what + " within " + request.msg.timeoutMs() + " ms"));
    }

    /**
     * Ends every waiting request with a failure; the actor stops.
     *
     * @param reason why, for the callers
     * @param keepPersistent whether persistent requests keep their stored state (the node stops: they are restored
     *     when the device's actor starts again) rather than being stored as FAILED
     */
    void failAll(String reason, boolean keepPersistent) {
        List<Pending> all = new ArrayList<>(pending.values());
        pending.clear();
        subscribed.clear();
        for (Pending request : all) {
            request.timer.cancel();
            if (keepPersistent && request.msg.persistent()) {
                request.msg.outcome().complete(RpcOutcome.failed(reason + "; it stays stored and is sent again when the "
                        + "device's actor starts again"));
            } else {
                end(request.msg, RpcOutcome.failed(reason));
            }
        }
    }

    int pendingCount() {
        return pending.size();
    }

    int subscribedCount() {
        return subscribed.size();
    }

    private boolean isPending(UUID rpcId) {
        for (Pending request : pending.values()) {
            if (request.msg.rpcId().equals(rpcId)) {
                return true;
            }
        }
        return false;
    }

    private void send(Pending request) {
        Iterator<DeviceSession> sessions = subscribed.values().iterator();
        while (sessions.hasNext()) {
            if (!request.sendToSession(sessions.next())) {
                // gone (closed, or a session on another node that was not refreshed in time): forget it
                sessions.remove();
            }
        }
    }

    private void end(ToDeviceRpcMsg msg, RpcOutcome outcome) {
        if (msg.outcome().complete(outcome)) {
            stats.rpcFinished(outcome.status().name(), outcome.refused());
            if (msg.persistent()) {
                states.changed(msg, outcome.status(), outcome);
            }
        }
    }

    private final class Pending {
        private final int requestId;
        private final ToDeviceRpcMsg msg;
        /** The sessions that took it and will tell whether the device acknowledged it. */
        private final Set<UUID> awaiting = new HashSet<>();
        private TbTimer timer;
        private boolean sent;
        private boolean delivered;

        private Pending(int requestId, ToDeviceRpcMsg msg) {
            this.requestId = requestId;
            this.msg = msg;
        }

        /** @return whether the request has been sent (to this session or before) */
        private boolean sendTo(DeviceSession session) {
            sendToSession(session);
            return sent;
        }

        /** @return whether this session took it */
        private boolean sendToSession(DeviceSession session) {
            if (!session.sendRpcRequest(requestId, msg.method(), msg.params())) {
                return false;
            }
            boolean first = !sent;
            sent = true;
            if (session.confirmsRpcDelivery()) {
                awaiting.add(session.sessionId());
                if (first && msg.persistent() && !delivered) {
                    states.changed(msg, RpcStatus.SENT, null);
                }
            } else {
                // a session that does not confirm (MQTT QoS 0): delivered once written, as far as the server can tell
                delivered = true;
                if (first && msg.persistent() && !msg.oneway()) {
                    states.changed(msg, RpcStatus.SENT, null);
                }
            }
            return true;
        }

        /** The device acknowledged it: a persistent two-way request is stored DELIVERED until its answer comes. */
        private void delivered() {
            if (!delivered) {
                delivered = true;
                if (msg.persistent() && !msg.oneway()) {
                    states.changed(msg, RpcStatus.DELIVERED, null);
                }
            }
        }
    }
}
