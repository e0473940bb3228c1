package io.tbactors.sample.iot.actors;

import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.sample.iot.actors.msg.DeviceDeletedMsg;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.FromDeviceRpcResponseMsg;
import io.tbactors.sample.iot.actors.msg.RpcDeliveryMsg;
import io.tbactors.sample.iot.actors.msg.SharedAttributesUpdatedMsg;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.actors.msg.ToServerRpcRequestMsg;
import io.tbactors.sample.iot.actors.msg.ToServerRpcResponseMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.sample.iot.actors.msg.DeviceDataMsg;
import io.tbactors.rule.actors.msg.ToRuleEngineMsg;
import io.tbactors.rule.actors.msg.ToRuleEnginePackMsg;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.rule.MsgPackCallback;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import io.tbactors.rule.TbMsgTracker;
import io.tbactors.sample.iot.storage.KvCodec;
import io.tbactors.sample.iot.storage.RpcDao;
import lombok.extern.slf4j.Slf4j;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import io.tbactors.sample.iot.actors.msg.TsEntry;

/**
 * A device's actor. It turns the device's posts into rule-engine messages (one per reading, sharing a callback that
 * completes the post's future once the root chain is done with all of them), in the order they arrive, and stamps
 * readings that carry no time with a server time that strictly increases per device: two posts in the same
 * millisecond never overwrite each other, and the history keeps their order.
 *
 * <p>It also owns the device's sessions subscribed to server-side RPC and the requests waiting for a session or an
 * answer ({@link DeviceRpcs}), as ThingsBoard's device actor does: a request is sent to every subscribed session,
 * waits for one when there is none, and ends once (answered, delivered, timed out or failed with a reason). When the
 * actor stops, its waiting requests fail with the reason: the device was deleted, or the node is stopping.
 *
 * <p>A device's own RPC requests (client-side RPC) go into the root chain as {@code TO_SERVER_RPC_REQUEST} messages
 * (data {@code {"method", "params"}}, metadata {@code requestId} and {@code sessionId}, as ThingsBoard's); the
 * chain's {@code rpc-call-reply} node answers through this actor ({@link DeviceClientRpcs}), which hands the answer to
 * the waiting session, or ends the request when nothing answered within {@code sample.rpc.client-side-timeout}.
 */
@Slf4j
public class DeviceActor extends AbstractTbActor {

    private static final int MAX_INIT_ATTEMPTS = 3;

    private final IotActorServices services;
    private final UUID tenantId;
    private final UUID deviceId;
    private String deviceName;
    private String deviceType;
    private long lastServerTs;
    private DeviceRpcs rpcs;
    private DeviceClientRpcs clientRpcs;
    private final Map<UUID, DeviceSession> attributeSubscribers = new LinkedHashMap<>();
    private String stopReason;

    DeviceActor(IotActorServices services, UUID tenantId, UUID deviceId) {
        this.services = services;
        this.tenantId = tenantId;
        this.deviceId = deviceId;
    }

    @Override
    public void init(TbActorCtx ctx) throws TbActorException {
        super.init(ctx);
        Device device = services.getDeviceService().findById(deviceId)
                .orElseThrow(() -> new TbActorException("Device " + deviceId + " does not exist", null));
        deviceName = device.name();
        deviceType = device.type();
        rpcs = new DeviceRpcs(deviceId, services.getRpcSettings().getMaxPendingPerDevice(), services.getStats(),
                (requestId, delayMs) -> ctx.scheduleOnce(new RpcTimeoutMsg(requestId), Duration.ofMillis(delayMs)),
                (request, status, outcome) -> services.getRpcDao().updateLater(request.rpcId(), status.name(),
                        outcome != null ? outcome.response() : null, outcome != null ? outcome.reason() : null));
        clientRpcs = new DeviceClientRpcs(deviceId, services.getRpcSettings().getMaxPendingPerDevice(),
                services.getRpcSettings().getClientSideTimeout().toMillis(), services.getStats(),
                (key, delayMs) -> ctx.scheduleOnce(new ClientRpcTimeoutMsg(key), Duration.ofMillis(delayMs)));
        restorePersistentRpcs();
    }

    /** Persistent requests stored before this actor started (e.g. before a restart) wait for a session again. */
    private void restorePersistentRpcs() {
        List<RpcDao.StoredRpc> stored;
        try {
            stored = services.getRpcDao().findActive(deviceId);
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot read the persistent RPC requests of device " + deviceId, e);
        }
        for (RpcDao.StoredRpc rpc : stored) {
            JsonNode params;
            try {
                params = services.getJsonMapper().readTree(rpc.params());
            } catch (RuntimeException unreadable) {
                params = JsonNodeFactory.instance.textNode(rpc.params());
            }
            rpcs.onRequest(new ToDeviceRpcMsg(tenantId, deviceId, rpc.id(), rpc.oneway(), rpc.method(), params,
                    rpc.timeoutMs(), true, rpc.expirationTime(), new CompletableFuture<>()));
        }
        if (!stored.isEmpty()) {
            log.info("Device {}: {} persistent RPC request(s) restored, waiting for a session", deviceId, stored.size());
        }
    }

    @Override
    public void destroy(TbActorStopReason reason, Throwable cause) {
        if (rpcs != null) {
            rpcs.failAll(stopReason != null ? stopReason : reason == TbActorStopReason.RESTARTED
                    ? "the device's actor restarted after a failure" : "the node is stopping, or (cluster profile) the "
                    + "device's partition moved to another node (" + reason + "); send it again",
                    stopReason == null);
        }
        if (clientRpcs != null) {
            clientRpcs.failAll(stopReason != null ? stopReason : "the device's actor stopped (" + reason + ")");
        }
    }

    @Override
    public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
        // a deleted device never comes back; a database hiccup might: retry briefly, then give up
        return attempt < MAX_INIT_ATTEMPTS ? InitFailureStrategy.retryWithDelay(100L * attempt) : InitFailureStrategy.stop();
    }

    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof DeviceDataMsg data) {
            // one callback for the request's readings: its future completes when the chain is done with all of them
            TbMsgCallback callback = new MsgPackCallback(data.entries().size(), data.processed());
            List<TbMsg> msgs = new ArrayList<>(data.entries().size());
            for (TsEntry entry : data.entries()) {
                long ts = entry.ts() != null ? entry.ts() : nextServerTs();
                msgs.add(new TbMsg(randomId(), data.msgType(), tenantId, deviceId, ts, KvCodec.frozenValues(entry.values()),
                        metadata(ts), new TbMsgTracker(services.getStats(), callback)));
            }
            // a request's readings travel to the root chain as one actor message: two hops a request, not a reading
            ctx.getParentRef().tell(msgs.size() == 1 ? new ToRuleEngineMsg(msgs.get(0)) : new ToRuleEnginePackMsg(msgs));
            services.getStats().deviceAccepted();
            return true;
        }
        if (msg instanceof ToDeviceRpcMsg request) {
            rpcs.onRequest(request);
        } else if (msg instanceof FromDeviceRpcResponseMsg response) {
            rpcs.onResponse(response);
        } else if (msg instanceof RpcDeliveryMsg delivery) {
            rpcs.onDelivery(delivery);
        } else if (msg instanceof RpcTimeoutMsg timeout) {
            rpcs.onTimeout(timeout.requestId());
        } else if (msg instanceof ToServerRpcRequestMsg request) {
            onClientRpc(request);
        } else if (msg instanceof ToServerRpcResponseMsg response) {
            clientRpcs.onResponse(response);
        } else if (msg instanceof ClientRpcTimeoutMsg timeout) {
            clientRpcs.onTimeout(timeout.key());
        } else if (msg instanceof SessionSubscribeMsg subscription) {
            onSubscription(subscription);
        } else if (msg instanceof SharedAttributesUpdatedMsg updated) {
            attributeSubscribers.values().removeIf(session -> !session.sendAttributesUpdate(updated.changed()));
        } else if (msg instanceof DeviceDeletedMsg) {
            // the waiting requests fail with this reason in destroy; what is queued behind is told STOPPED
            stopReason = "device " + deviceId + " was deleted";
            ctx.stop(ctx.getSelf());
        } else {
            return false;
        }
        return true;
    }

    /** A device's own RPC request enters the root chain as ThingsBoard's {@code TO_SERVER_RPC_REQUEST} message. */
    private void onClientRpc(ToServerRpcRequestMsg request) {
        if (!clientRpcs.onRequest(request)) {
            return;
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("method", request.method());
        data.put("params", services.getJsonMapper().convertValue(request.params(), Object.class));
        long ts = nextServerTs();
        Map<String, String> metadata = new LinkedHashMap<>(metadata(ts));
        metadata.put("requestId", Integer.toString(request.requestId()));
        metadata.put("sessionId", request.sessionId().toString());
        TbMsgCallback callback = new TbMsgCallback() {
            @Override
            public void onSuccess() {
                // the chain is done with it: answered, or left for its timeout
            }

            @Override
            public void onFailure(RuntimeException failure) {
                // counted by the rule engine; the request ends with its timeout unless a node answered it
                log.debug("The root chain failed on RPC request {} of device {}: {}", request.requestId(), deviceId,
                        failure.toString());
            }
        };
        TbMsg msg = new TbMsg(randomId(), TbMsgType.TO_SERVER_RPC_REQUEST, tenantId, deviceId, ts,
                KvCodec.frozenValues(data), Map.copyOf(metadata), new TbMsgTracker(services.getStats(), callback));
        ctx.getParentRef().tell(new ToRuleEngineMsg(msg));
    }

    private void onSubscription(SessionSubscribeMsg msg) {
        if (msg.topic() == SessionSubscribeMsg.Topic.RPC) {
            rpcs.onSubscription(msg);
        } else if (msg.subscribe()) {
            attributeSubscribers.put(msg.session().sessionId(), msg.session());
        } else {
            attributeSubscribers.remove(msg.session().sessionId());
        }
    }

    private long nextServerTs() {
        lastServerTs = Math.max(System.currentTimeMillis(), lastServerTs + 1);
        return lastServerTs;
    }

    private Map<String, String> metadata(long ts) {
        return new ReadingMetadata(deviceName, deviceType, ts);
    }

    // message ids need uniqueness, not secrecy: skip SecureRandom's cost and contention on the hot path
    private static UUID randomId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new UUID((random.nextLong() & ~0xF000L) | 0x4000L, (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
    }

    /** A device's waiting RPC request's timeout, told to the actor itself. */
    record ClientRpcTimeoutMsg(DeviceClientRpcs.Key key) implements TbActorMsg {
    }

    /** A waiting RPC request's timeout, told to the actor itself. */
    record RpcTimeoutMsg(int requestId) implements TbActorMsg {
    }
}
