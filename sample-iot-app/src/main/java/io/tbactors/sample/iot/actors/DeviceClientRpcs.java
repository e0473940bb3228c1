package io.tbactors.sample.iot.actors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tbactors.api.TbTimer;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.ToServerRpcRequestMsg;
import io.tbactors.sample.iot.actors.msg.ToServerRpcResponseMsg;
import io.tbactors.sample.iot.stats.IotStats;
import lombok.extern.slf4j.Slf4j;

/**
 * A device actor's own RPC requests of its device (client-side RPC) that wait for the rule chain's answer. Used on
 * the actor's thread only. Each ends exactly once: answered by the chain's {@code rpc-call-reply} node, timed out
 * (nothing answered within {@code sample.rpc.client-side-timeout}), or failed (refused past the bound, the actor
 * stopped). An answer for a request that no longer waits is counted and dropped.
 */
@Slf4j
final class DeviceClientRpcs {

    /** Schedules a request's timeout as a message to the actor itself. */
    interface Timers {

        /**
         * @param key the request
         * @param delayMs after how long
         * @return the timer, cancelled when the request is answered first
         */
        TbTimer schedule(Key key, long delayMs);
    }

    /**
     * A request's identity in its device's actor: the waiting session and the id the request has there.
     *
     * @param sessionId the session
     * @param requestId the request's id in it
     */
    record Key(UUID sessionId, int requestId) {
    }

    private final UUID deviceId;
    private final int maxPending;
    private final long timeoutMs;
    private final IotStats stats;
    private final Timers timers;
    private final Map<Key, Waiting> waiting = new LinkedHashMap<>();

    DeviceClientRpcs(UUID deviceId, int maxPending, long timeoutMs, IotStats stats, Timers timers) {
        this.deviceId = deviceId;
        this.maxPending = maxPending;
        this.timeoutMs = timeoutMs;
        this.stats = stats;
        this.timers = timers;
    }

    /**
     * @param msg the device's request
     * @return whether it waits now (the caller sends it into the rule chain); false when it already ended (refused)
     */
    boolean onRequest(ToServerRpcRequestMsg msg) {
        Key key = new Key(msg.sessionId(), msg.requestId());
        if (waiting.containsKey(key)) {
            end(msg, RpcOutcome.failed("request " + msg.requestId() + " of this session still waits for its answer; "
                    + "give each request its own id"));
            return false;
        }
        if (waiting.size() >= maxPending) {
            end(msg, RpcOutcome.refused("device " + deviceId + " already has " + waiting.size() + " RPC request(s) "
                    + "waiting for the rule chain's answer, the most it keeps (sample.rpc.max-pending-per-device); "
                    + "send it again later"));
            return false;
        }
        waiting.put(key, new Waiting(msg, timers.schedule(key, timeoutMs)));
        return true;
    }

    /** @return whether the answer reached a waiting request (false: it was dropped and counted) */
    boolean onResponse(ToServerRpcResponseMsg msg) {
        Waiting request = waiting.remove(new Key(msg.sessionId(), msg.requestId()));
        if (request == null) {
            stats.clientRpcLateReply();
            log.debug("The rule chain answered RPC request {} of device {} (session {}), which no longer waits (timed "
                    + "out, answered already, or its session is gone): answer dropped", msg.requestId(), deviceId,
                    msg.sessionId());
            return false;
        }
        request.timer.cancel();
        end(request.msg, RpcOutcome.successful(msg.response()));
        return true;
    }

    void onTimeout(Key key) {
        Waiting request = waiting.remove(key);
        if (request != null) {
            end(request.msg, RpcOutcome.timeout("nothing in the rule chain answered RPC request " + key.requestId()
                    + " of device " + deviceId + " within " + timeoutMs + " ms (sample.rpc.client-side-timeout); "
                    + "an rpc-call-reply node answers it"));
        }
    }

    /** @param reason why every waiting request fails: the actor stops */
    void failAll(String reason) {
        List<Waiting> all = new ArrayList<>(waiting.values());
        waiting.clear();
        for (Waiting request : all) {
            request.timer.cancel();
            end(request.msg, RpcOutcome.failed(reason));
        }
    }

    int waitingCount() {
        return waiting.size();
    }

    private void end(ToServerRpcRequestMsg msg, RpcOutcome outcome) {
        // counted first: completing the reply answers the device at once (HTTP), on this thread
        if (!msg.reply().isDone()) {
            stats.clientRpcFinished(outcome.status().name(), outcome.refused());
            msg.reply().complete(outcome);
        }
    }

    private record Waiting(ToServerRpcRequestMsg msg, TbTimer timer) {
    }
}
