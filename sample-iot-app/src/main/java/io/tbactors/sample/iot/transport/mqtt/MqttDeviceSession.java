package io.tbactors.sample.iot.transport.mqtt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.mqtt.MqttConnAckMessage;
import io.netty.handler.codec.mqtt.MqttConnectMessage;
import io.netty.handler.codec.mqtt.MqttConnectReturnCode;
import io.netty.handler.codec.mqtt.MqttMessage;
import io.netty.handler.codec.mqtt.MqttMessageBuilders;
import io.netty.handler.codec.mqtt.MqttMessageIdVariableHeader;
import io.netty.handler.codec.mqtt.MqttPublishMessage;
import io.netty.handler.codec.mqtt.MqttQoS;
import io.netty.handler.codec.mqtt.MqttSubscribeMessage;
import io.netty.handler.codec.mqtt.MqttUnsubscribeMessage;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.RpcStatus;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.ingestion.DeviceRequests;
import io.tbactors.rule.TbMsgType;
import io.tbactors.sample.iot.ingestion.DeviceIngestion;
import io.tbactors.sample.iot.actors.msg.TsEntry;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.sample.iot.web.LogText;
import io.tbactors.sample.iot.web.ProblemResponses;
import lombok.extern.slf4j.Slf4j;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One MQTT connection of one device. Every field is touched on the connection's event loop only, so none needs a
 * lock. PUBLISH packets are taken into the rule engine in the order they were read, through the same
 * {@link DeviceIngestion} as the HTTP API, at most {@code sample.mqtt.max-in-flight-per-connection} at a time; a QoS 1
 * message is acknowledged when its readings are stored, and acknowledgements leave in the order the messages came
 * (MQTT requires it). While the connection's or the device's or tenant's work in flight is at its bound, the
 * connection is not read: what the client sends waits in TCP buffers, not in this server's memory.
 */
@Slf4j
final class MqttDeviceSession extends ChannelInboundHandlerAdapter implements DeviceSession {

    static final String TELEMETRY_TOPIC = "v1/devices/me/telemetry";
    static final String ATTRIBUTES_TOPIC = "v1/devices/me/attributes";
    static final String RPC_REQUEST_TOPIC_PREFIX = "v1/devices/me/rpc/request/";
    static final String RPC_RESPONSE_TOPIC_PREFIX = "v1/devices/me/rpc/response/";
    static final String ATTRIBUTES_REQUEST_TOPIC_PREFIX = "v1/devices/me/attributes/request/";
    static final String ATTRIBUTES_RESPONSE_TOPIC_PREFIX = "v1/devices/me/attributes/response/";
    /** The topic filters a device may subscribe to, ThingsBoard's. */
    static final List<String> SUBSCRIBABLE = List.of(RPC_REQUEST_TOPIC_PREFIX + "+", ATTRIBUTES_TOPIC,
            ATTRIBUTES_RESPONSE_TOPIC_PREFIX + "+", RPC_RESPONSE_TOPIC_PREFIX + "+");

    private static final int MQTT_5 = 5;
    private static final byte REASON_UNSPECIFIED_ERROR = (byte) 0x80;
    private static final byte REASON_TOPIC_NAME_INVALID = (byte) 0x90;
    private static final byte REASON_PAYLOAD_FORMAT_INVALID = (byte) 0x99;
    private static final byte REASON_QUOTA_EXCEEDED = (byte) 0x97;
    private static final byte SUBSCRIPTION_REFUSED = (byte) 0x80;
    private static final int MAX_RETRY_DELAY_MS = 50;
    private static final int MAX_PACKET_ID = 65_535;
    /** Most QoS 1 messages to the device left unacknowledged; a client past it does not acknowledge, and is closed. */
    private static final int MAX_UNACKNOWLEDGED = 1_000;

    private final MqttDeviceServer server;
    private final UUID sessionId = UUID.randomUUID();
    private final int maxInFlight;
    private final ArrayDeque<Publish> waiting = new ArrayDeque<>();
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private Device device;
    private int protocolLevel;
    private int keepAliveSeconds;
    private boolean connectReceived;
    private boolean closing;
    private boolean stopping;
    private boolean backPressured;
    private boolean retryScheduled;
    private int retryDelayMs = 1;
    private boolean invalidLogged;
    /** Values of the first waiting message once it was parsed and found no room; 0 while it was not. */
    private int blockedValues;
    private CompletableFuture<Void> drained;
    /** Whether the device subscribed to {@code v1/devices/me/rpc/request/+}, so its actor sends it RPC requests. */
    private boolean rpcSubscribed;
    /** Whether the device subscribed to {@code v1/devices/me/attributes}, so its actor pushes shared-attribute updates. */
    private boolean attributesSubscribed;
    /** The QoS granted per topic filter the device subscribed to; what is published on a topic goes at its QoS. */
    private final Map<String, MqttQoS> granted = new HashMap<>();
    /** The QoS of the device's RPC subscription, read on its actor's thread when it sends a request. */
    private volatile MqttQoS rpcQos = MqttQoS.AT_MOST_ONCE;
    /** Whether the last request {@link #sendRpcRequest} took goes at QoS 1 (the device's actor's thread only). */
    private boolean lastRpcConfirmed;
    /** QoS 1 messages published to the device and not yet acknowledged: packet id to RPC request id (-1: not RPC). */
    private final Map<Integer, Integer> awaitingAck = new HashMap<>();
    private int lastPacketId;

    MqttDeviceSession(MqttDeviceServer server) {
        this.server = server;
        this.maxInFlight = server.getSettings().getMaxInFlightPerConnection();
    }

    @Override
    public void channelActive(ChannelHandlerContext context) throws Exception {
        this.ctx = context;
        long timeoutMs = server.getSettings().getConnectTimeout().toMillis();
        context.executor().schedule(() -> {
            if (!connectReceived && context.channel().isActive()) {
                log.debug("Closing MQTT connection from {}: no CONNECT within {} ms (sample.mqtt.connect-timeout)",
                        context.channel().remoteAddress(), timeoutMs);
                context.close();
            }
        }, timeoutMs, TimeUnit.MILLISECONDS);
        super.channelActive(context);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        try {
            if (closing || !(msg instanceof MqttMessage message)) {
                return;
            }
            if (message.decoderResult().isFailure()) {
                badPacket(message.decoderResult().cause());
                return;
            }
            switch (message.fixedHeader().messageType()) {
                case CONNECT -> onConnect((MqttConnectMessage) message);
                case PUBLISH -> onPublish((MqttPublishMessage) message);
                case PINGREQ -> ctx.writeAndFlush(MqttMessage.PINGRESP);
                case PUBACK -> onPubAck(message);
                case SUBSCRIBE -> onSubscribe((MqttSubscribeMessage) message);
                case UNSUBSCRIBE -> onUnsubscribe((MqttUnsubscribeMessage) message);
                case DISCONNECT -> ctx.close();
                default -> close("unexpected " + message.fixedHeader().messageType() + " packet", false);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void badPacket(Throwable cause) {
        if (cause instanceof TooLongFrameException) {
            close("a packet over the size limit (" + server.getMaxPayloadBytes() + " bytes of payload, "
                    + "sample.device-api.max-payload-size): " + cause.getMessage(), true);
        } else {
            close("a malformed MQTT packet: " + cause.getMessage(), true);
        }
    }

    private void onConnect(MqttConnectMessage connect) {
        if (connectReceived) {
            close("a second CONNECT on one connection (a protocol violation)", true);
            return;
        }
        connectReceived = true;
        protocolLevel = connect.variableHeader().version();
        keepAliveSeconds = connect.variableHeader().keepAliveTimeSeconds();
        String token = connect.payload().userName();
        if (token == null || token.isEmpty()) {
            server.getMetrics().connectRefused();
            refuseConnect(protocolLevel == MQTT_5 ? MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USERNAME_OR_PASSWORD
                    : MqttConnectReturnCode.CONNECTION_REFUSED_BAD_USER_NAME_OR_PASSWORD, "no user name (the device's access "
                    + "token goes in the user name)");
            return;
        }
        // nothing more is read until the token is checked; what was already read waits in order
        ctx.channel().config().setAutoRead(false);
        server.authenticate(token).whenCompleteAsync(this::onAuthenticated, ctx.executor());
    }

    private void onAuthenticated(Optional<Device> found, Throwable failure) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (failure != null) {
            log.warn("Refusing MQTT connection from {}: the access token could not be checked: {}",
                    ctx.channel().remoteAddress(), ProblemResponses.rootMessage(failure));
            server.getMetrics().connectRefused();
            refuseConnect(protocolLevel == MQTT_5 ? MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE_5
                    : MqttConnectReturnCode.CONNECTION_REFUSED_SERVER_UNAVAILABLE, null);
            return;
        }
        if (found.isEmpty()) {
            server.getMetrics().connectRefused();
            refuseConnect(protocolLevel == MQTT_5 ? MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED_5
                    : MqttConnectReturnCode.CONNECTION_REFUSED_NOT_AUTHORIZED, "unknown device access token");
            return;
        }
        device = found.get();
        server.register(device, this);
        server.getMetrics().connectAccepted();
        ctx.writeAndFlush(connAck(MqttConnectReturnCode.CONNECTION_ACCEPTED));
        if (keepAliveSeconds > 0) {
            // MQTT's rule: no packet within one and a half keep-alive periods means the client is gone
            ctx.pipeline().addBefore(ctx.name(), "keepAlive", new IdleStateHandler(keepAliveSeconds * 3L / 2, 0, 0,
                    TimeUnit.SECONDS));
        }
        pump();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
        // a connection that is not read because of back-pressure cannot show its pings: that is not idleness
        if (event instanceof IdleStateEvent && !backPressured && !closing) {
            log.debug("Closing the MQTT connection of {}: nothing received within 1.5 keep-alive periods", who());
            context.close();
            return;
        }
        super.userEventTriggered(context, event);
    }

    private void refuseConnect(MqttConnectReturnCode code, String why) {
        if (why != null) {
            log.info("Refusing MQTT connection from {}: {}", ctx.channel().remoteAddress(), why);
        }
        closing = true;
        ctx.writeAndFlush(connAck(code)).addListener(done -> ctx.close());
    }

    private MqttConnAckMessage connAck(MqttConnectReturnCode code) {
        return MqttMessageBuilders.connAck().returnCode(code).sessionPresent(false).build();
    }

    private void onPublish(MqttPublishMessage publish) {
        server.getMetrics().publishRead();
        if (stopping) {
            // read after the stop began: never taken, never acknowledged
            server.getMetrics().dropped(1);
            return;
        }
        int size = publish.payload().readableBytes();
        if (size > server.getMaxPayloadBytes()) {
            close("a payload of " + size + " bytes, over the limit of " + server.getMaxPayloadBytes()
                    + " bytes (sample.device-api.max-payload-size)", true);
            return;
        }
        MqttQoS qos = publish.fixedHeader().qosLevel();
        if (qos == MqttQoS.EXACTLY_ONCE) {
            close("a QoS 2 message; the device API takes QoS 0 and 1", true);
            return;
        }
        waiting.addLast(new Publish(publish.variableHeader().topicName(), qos, publish.variableHeader().packetId(),
                ByteBufUtil.getBytes(publish.payload())));
        pump();
    }

    private void onSubscribe(MqttSubscribeMessage subscribe) {
        if (device == null) {
            close("a SUBSCRIBE before its CONNECT was accepted", true);
            return;
        }
        // ThingsBoard's topics are granted at the QoS asked, at most 1 (what is published on a topic goes at its QoS: an
        // RPC request at QoS 1 is delivered when the device acknowledges it); any other topic is refused, per topic,
        // so the client knows
        MqttMessageBuilders.SubAckBuilder subAck = MqttMessageBuilders.subAck()
                .packetId(subscribe.variableHeader().messageId());
        boolean subscribesToRpc = false;
        boolean subscribesToAttributes = false;
        for (var topic : subscribe.payload().topicSubscriptions()) {
            if (subscribable(topic.topicName())) {
                MqttQoS qos = topic.qualityOfService() == MqttQoS.AT_MOST_ONCE ? MqttQoS.AT_MOST_ONCE : MqttQoS.AT_LEAST_ONCE;
                subAck.addGrantedQos(qos);
                granted.put(topic.topicName(), qos);
                if (topic.topicName().equals(RPC_REQUEST_TOPIC_PREFIX + "+")) {
                    subscribesToRpc = true;
                    rpcQos = qos;
                }
                subscribesToAttributes |= topic.topicName().equals(ATTRIBUTES_TOPIC);
            } else {
                log.debug("Refused a subscription of {} to '{}': not a device API topic (allowed: {})", who(),
                        LogText.escape(topic.topicName()), SUBSCRIBABLE);
                subAck.addGrantedQos(MqttQoS.FAILURE);
            }
        }
        // the SUBACK leaves first: the requests waiting for the device follow it
        ctx.writeAndFlush(subAck.build());
        if (subscribesToRpc && !rpcSubscribed) {
            rpcSubscribed = server.getSessionLink().subscribe(device, this, SessionSubscribeMsg.Topic.RPC, true);
        }
        if (subscribesToAttributes && !attributesSubscribed) {
            attributesSubscribed = server.getSessionLink().subscribe(device, this, SessionSubscribeMsg.Topic.ATTRIBUTES, true);
        }
    }

    /**
     * @param filter a topic filter a device subscribes to
     * @return whether it is one of ThingsBoard's ({@link #SUBSCRIBABLE}), or one of its topics with the {@code +} taken
     *     by a request id (as {@code mosquitto_rr} subscribes to its one response topic)
     */
    static boolean subscribable(String filter) {
        if (SUBSCRIBABLE.contains(filter)) {
            return true;
        }
        for (String prefix : List.of(RPC_REQUEST_TOPIC_PREFIX, RPC_RESPONSE_TOPIC_PREFIX, ATTRIBUTES_RESPONSE_TOPIC_PREFIX)) {
            if (filter.startsWith(prefix) && filter.length() > prefix.length()
                    && filter.substring(prefix.length()).chars().allMatch(Character::isDigit)) {
                return true;
            }
        }
        return false;
    }

    private void onUnsubscribe(MqttUnsubscribeMessage unsubscribe) {
        unsubscribe.payload().topics().forEach(granted::remove);
        if (device != null) {
            if (rpcSubscribed && unsubscribe.payload().topics().contains(RPC_REQUEST_TOPIC_PREFIX + "+")) {
                rpcSubscribed = false;
                server.getSessionLink().subscribe(device, this, SessionSubscribeMsg.Topic.RPC, false);
            }
            if (attributesSubscribed && unsubscribe.payload().topics().contains(ATTRIBUTES_TOPIC)) {
                attributesSubscribed = false;
                server.getSessionLink().subscribe(device, this, SessionSubscribeMsg.Topic.ATTRIBUTES, false);
            }
        }
        ctx.writeAndFlush(MqttMessageBuilders.unsubAck().packetId(unsubscribe.variableHeader().messageId()).build());
    }

    @Override
    public UUID sessionId() {
        return sessionId;
    }

    @Override
    public boolean sendRpcRequest(int requestId, String method, JsonNode params) {
        // called on the device actor's thread: the write happens on the connection's own
        if (closing || !ctx.channel().isActive()) {
            return false;
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("method", method);
        body.set("params", params);
        byte[] payload = body.toString().getBytes(StandardCharsets.UTF_8);
        MqttQoS qos = rpcQos;
        lastRpcConfirmed = qos == MqttQoS.AT_LEAST_ONCE;
        ctx.executor().execute(() -> publishToDevice(RPC_REQUEST_TOPIC_PREFIX + requestId, payload, qos, requestId));
        return true;
    }

    /** @return whether the request just taken goes at QoS 1: its actor hears of the PUBACK (or of its loss) */
    @Override
    public boolean confirmsRpcDelivery() {
        return lastRpcConfirmed;
    }

    @Override
    public boolean sendAttributesUpdate(JsonNode changed) {
        if (closing || !ctx.channel().isActive()) {
            return false;
        }
        byte[] payload = changed.toString().getBytes(StandardCharsets.UTF_8);
        ctx.executor().execute(() -> publishToDevice(ATTRIBUTES_TOPIC, payload));
        return true;
    }

    private void publishToDevice(String topic, byte[] payload) {
        publishToDevice(topic, payload, qosFor(topic), -1);
    }

    /**
     * Publishes at the QoS given; a QoS 1 message waits for its PUBACK, and an RPC request's actor hears of it (or, when
     * the connection ends first, that the request did not reach the device).
     */
    private void publishToDevice(String topic, byte[] payload, MqttQoS qos, int rpcRequestId) {
        boolean confirm = qos == MqttQoS.AT_LEAST_ONCE;
        if (!ctx.channel().isActive() || closing) {
            if (confirm && rpcRequestId >= 0) {
                server.getSessionLink().rpcDelivery(device, sessionId, rpcRequestId, false);
            }
            return;
        }
        MqttMessageBuilders.PublishBuilder publish = MqttMessageBuilders.publish().topicName(topic).qos(qos)
                .retained(false).payload(Unpooled.wrappedBuffer(payload));
        if (confirm) {
            if (awaitingAck.size() >= MAX_UNACKNOWLEDGED) {
                if (rpcRequestId >= 0) {
                    server.getSessionLink().rpcDelivery(device, sessionId, rpcRequestId, false);
                }
                close(MAX_UNACKNOWLEDGED + " QoS 1 messages left unacknowledged (no PUBACK)", true);
                return;
            }
            int packetId = nextPacketId();
            awaitingAck.put(packetId, rpcRequestId);
            publish.messageId(packetId);
        }
        ctx.writeAndFlush(publish.build());
        server.getMetrics().sentToDevice();
    }

    /** @return the QoS granted to the subscription that matches the topic (the highest), QoS 0 when none does */
    private MqttQoS qosFor(String topic) {
        MqttQoS qos = MqttQoS.AT_MOST_ONCE;
        for (Map.Entry<String, MqttQoS> grant : granted.entrySet()) {
            String filter = grant.getKey();
            boolean matches = filter.equals(topic) || filter.endsWith("/+") && topic.startsWith(filter.substring(0,
                    filter.length() - 1)) && topic.indexOf('/', filter.length() - 1) < 0;
            if (matches && grant.getValue().value() > qos.value()) {
                qos = grant.getValue();
            }
        }
        return qos;
    }

    private int nextPacketId() {
        do {
            lastPacketId = lastPacketId == MAX_PACKET_ID ? 1 : lastPacketId + 1;
        } while (awaitingAck.containsKey(lastPacketId));
        return lastPacketId;
    }

    /** The device acknowledged a QoS 1 message: an RPC request is DELIVERED. */
    private void onPubAck(MqttMessage pubAck) {
        int packetId = ((MqttMessageIdVariableHeader) pubAck.variableHeader()).messageId();
        Integer rpcRequestId = awaitingAck.remove(packetId);
        if (rpcRequestId == null) {
            log.debug("PUBACK of {} for packet {}, which awaits none", who(), packetId);
        } else if (rpcRequestId >= 0 && device != null) {
            server.getSessionLink().rpcDelivery(device, sessionId, rpcRequestId, true);
        }
    }

    /** Takes waiting messages into the rule engine while there is room, then decides whether to read on. */
    private void pump() {
        if (device == null) {
            return;
        }
        while (!waiting.isEmpty() && inFlight.size() < maxInFlight && !stopping && !closing) {
            Step step = take(waiting.peekFirst());
            if (step == Step.BLOCKED) {
                scheduleRetry();
                break;
            }
            waiting.pollFirst();
        }
        updateReading();
    }

    private Step take(Publish publish) {
        if (publish.topic().startsWith(RPC_RESPONSE_TOPIC_PREFIX)) {
            onRpcResponse(publish);
            return Step.TAKEN;
        }
        if (publish.topic().startsWith(ATTRIBUTES_REQUEST_TOPIC_PREFIX)) {
            onAttributesRequest(publish);
            return Step.TAKEN;
        }
        if (publish.topic().startsWith(RPC_REQUEST_TOPIC_PREFIX)) {
            onClientRpc(publish);
            return Step.TAKEN;
        }
        String msgType = switch (publish.topic()) {
            case TELEMETRY_TOPIC -> TbMsgType.POST_TELEMETRY_REQUEST;
            case ATTRIBUTES_TOPIC -> TbMsgType.POST_ATTRIBUTES_REQUEST;
            default -> null;
        };
        if (msgType == null) {
            reject(publish, REASON_TOPIC_NAME_INVALID, "topic '" + LogText.escape(publish.topic())
                    + "' is not a device API topic; publish to " + TELEMETRY_TOPIC + ", " + ATTRIBUTES_TOPIC + ", "
                    + RPC_RESPONSE_TOPIC_PREFIX + "{id}, " + RPC_REQUEST_TOPIC_PREFIX + "{id} or "
                    + ATTRIBUTES_REQUEST_TOPIC_PREFIX + "{id}");
            return Step.TAKEN;
        }
        if (blockedValues > 0 && !server.getIngestion().hasRoom(device, blockedValues)) {
            // still no room for it: wait without parsing it again
            return Step.BLOCKED;
        }
        List<TsEntry> entries;
        try {
            entries = msgType.equals(TbMsgType.POST_TELEMETRY_REQUEST) ? server.getParser().parseTelemetry(publish.payload())
                    : List.of(new TsEntry(null, server.getParser().parseAttributes(publish.payload())));
        } catch (ApiException invalid) {
            reject(publish, REASON_PAYLOAD_FORMAT_INVALID, invalid.getMessage());
            return Step.TAKEN;
        }
        DeviceIngestion.Admission admission = server.getIngestion().submit(device, msgType, entries);
        if (!admission.accepted()) {
            if (admission.refusal() == DeviceIngestion.Refusal.TOO_LARGE) {
                // it can never fit, and MQTT 3.1.1 cannot refuse it but by not acknowledging, which a client would
                // answer by sending it again forever: the connection ends, with the reason
                server.getMetrics().invalid();
                disconnect(REASON_QUOTA_EXCEEDED, "a message that can never be admitted: " + admission.detail());
                return Step.TAKEN;
            }
            // the device's or tenant's work in flight is at its bound (or the actors are starting): try again soon
            blockedValues = DeviceIngestion.valuesOf(entries);
            return Step.BLOCKED;
        }
        blockedValues = 0;
        retryDelayMs = 1;
        InFlight taken = new InFlight(publish.qos() == MqttQoS.AT_LEAST_ONCE ? publish.packetId() : -1);
        inFlight.addLast(taken);
        admission.processed().whenComplete((ok, failure) -> ctx.executor().execute(() -> completed(taken, failure)));
        return Step.TAKEN;
    }

    /** {@code v1/devices/me/rpc/response/{id}}: the device's answer, to its actor; acknowledged once told. */
    private void onRpcResponse(Publish publish) {
        Integer requestId = idAfter(publish, RPC_RESPONSE_TOPIC_PREFIX);
        if (requestId == null) {
            return;
        }
        if (!server.getSessionLink().rpcResponse(device, requestId, new String(publish.payload(), StandardCharsets.UTF_8))) {
            reject(publish, REASON_UNSPECIFIED_ERROR, "an RPC answer while the actors are not running");
            return;
        }
        acknowledgeNow(publish);
    }

    /**
     * {@code v1/devices/me/attributes/request/{id}} with {@code {"clientKeys": "a,b", "sharedKeys": "c"}}: answered on
     * {@code v1/devices/me/attributes/response/{id}} with {@code {"client": {...}, "shared": {...}}}.
     */
    private void onAttributesRequest(Publish publish) {
        Integer requestId = idAfter(publish, ATTRIBUTES_REQUEST_TOPIC_PREFIX);
        if (requestId == null) {
            return;
        }
        DeviceRequests.AttributesQuery query;
        try {
            query = server.getRequests().parseAttributesQuery(publish.payload());
        } catch (ApiException invalid) {
            reject(publish, REASON_PAYLOAD_FORMAT_INVALID, invalid.getMessage());
            return;
        }
        acknowledgeNow(publish);
        server.getRequests().readAttributes(device, query).whenComplete((body, failure) -> {
            if (failure != null) {
                log.warn("Attribute request {} of {} failed: {}", requestId, who(), ProblemResponses.rootMessage(failure));
                return;
            }
            byte[] payload = body.toString().getBytes(StandardCharsets.UTF_8);
            ctx.executor().execute(() -> publishToDevice(ATTRIBUTES_RESPONSE_TOPIC_PREFIX + requestId, payload));
        });
    }

    /**
     * {@code v1/devices/me/rpc/request/{id}}: client-side RPC, through the tenant's rule chain; its answer is published on
     * {@code v1/devices/me/rpc/response/{id}}. A request nothing answers in time gets nothing (its device actor counts
     * it, {@code sample.iot.rpc.client.requests{status="timeout"}}).
     */
    private void onClientRpc(Publish publish) {
        Integer requestId = idAfter(publish, RPC_REQUEST_TOPIC_PREFIX);
        if (requestId == null) {
            return;
        }
        DeviceRequests.ClientRpcRequest request;
        try {
            request = server.getRequests().parseClientRpc(publish.payload());
        } catch (ApiException invalid) {
            reject(publish, REASON_PAYLOAD_FORMAT_INVALID, invalid.getMessage());
            return;
        }
        acknowledgeNow(publish);
        server.getSessionLink().clientRpc(device, sessionId, requestId, request).whenComplete((outcome, never) -> {
            if (outcome.status() == RpcStatus.SUCCESSFUL) {
                byte[] payload = outcome.response().getBytes(StandardCharsets.UTF_8);
                ctx.executor().execute(() -> publishToDevice(RPC_RESPONSE_TOPIC_PREFIX + requestId, payload));
            } else if (outcome.status() == RpcStatus.TIMEOUT) {
                log.debug("RPC request {} of {} got no answer: {}", requestId, who(), outcome.reason());
            } else {
                log.warn("RPC request {} of {} was not answered: {}", requestId, who(), outcome.reason());
            }
        });
    }

    private Integer idAfter(Publish publish, String prefix) {
        String id = publish.topic().substring(prefix.length());
        try {
            return Integer.valueOf(id);
        } catch (NumberFormatException notANumber) {
            reject(publish, REASON_TOPIC_NAME_INVALID, "topic '" + LogText.escape(publish.topic()) + "' does not end with "
                    + "a request id (a number): publish to " + prefix + "{id}");
            return null;
        }
    }

    /** A QoS 1 message handled at once is acknowledged in its place among those in flight. */
    private void acknowledgeNow(Publish publish) {
        if (publish.qos() == MqttQoS.AT_LEAST_ONCE) {
            InFlight handled = new InFlight(publish.packetId());
            handled.done = true;
            inFlight.addLast(handled);
            flushAcknowledgements();
        }
    }

    private void reject(Publish publish, byte reasonCode, String why) {
        server.getMetrics().invalid();
        if (!invalidLogged) {
            invalidLogged = true;
            log.warn("Rejected an MQTT message of {} (further rejections on this connection are logged at DEBUG): {}",
                    who(), why);
        } else {
            log.debug("Rejected an MQTT message of {}: {}", who(), why);
        }
        if (protocolLevel == MQTT_5 && publish.qos() == MqttQoS.AT_LEAST_ONCE) {
            // MQTT 5 can say no: a negative PUBACK, in its place among the acknowledgements
            InFlight refused = new InFlight(publish.packetId());
            refused.done = true;
            refused.reasonCode = reasonCode;
            inFlight.addLast(refused);
            flushAcknowledgements();
        }
        // MQTT 3.1.1 has no negative acknowledgement: the message stays unacknowledged, the connection stays open
    }

    private void completed(InFlight taken, Throwable failure) {
        taken.done = true;
        if (failure != null) {
            taken.reasonCode = REASON_UNSPECIFIED_ERROR;
            server.getMetrics().failed();
            server.getStats().deviceRejected();
            if (taken.packetId >= 0 && protocolLevel != MQTT_5) {
                // 3.1.1 cannot say "not stored" but by not acknowledging: close, so the client sends it again
                close("a QoS 1 message that was not stored (" + ProblemResponses.rootMessage(failure) + "); the client "
                        + "should send what was not acknowledged again", true);
            } else if (log.isDebugEnabled()) {
                log.debug("An MQTT message of {} was not stored: {}", who(), ProblemResponses.rootMessage(failure));
            }
        } else {
            server.getMetrics().stored();
        }
        flushAcknowledgements();
        if (drained != null && inFlight.isEmpty()) {
            drained.complete(null);
        }
        pump();
    }

    private void flushAcknowledgements() {
        boolean wrote = false;
        while (!inFlight.isEmpty() && inFlight.peekFirst().done) {
            InFlight head = inFlight.pollFirst();
            if (head.packetId < 0 || !ctx.channel().isActive()) {
                continue;
            }
            if (head.reasonCode == 0) {
                ctx.write(MqttMessageBuilders.pubAck().packetId(head.packetId).build());
                wrote = true;
            } else if (protocolLevel == MQTT_5) {
                ctx.write(MqttMessageBuilders.pubAck().packetId(head.packetId).reasonCode(head.reasonCode).build());
                wrote = true;
            }
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void scheduleRetry() {
        if (retryScheduled) {
            return;
        }
        retryScheduled = true;
        ctx.executor().schedule(() -> {
            retryScheduled = false;
            pump();
        }, retryDelayMs, TimeUnit.MILLISECONDS);
        retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_DELAY_MS);
    }

    private void updateReading() {
        boolean active = ctx.channel().isActive();
        boolean full = !waiting.isEmpty() || inFlight.size() >= maxInFlight || !ctx.channel().isWritable();
        boolean pressed = active && device != null && full && !stopping && !closing;
        if (pressed != backPressured) {
            backPressured = pressed;
            server.getMetrics().readPaused(pressed);
        }
        ctx.channel().config().setAutoRead(active && device != null && !full && !stopping && !closing);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) throws Exception {
        // a client that does not read its acknowledgements is not read either, so they cannot pile up here
        pump();
        super.channelWritabilityChanged(context);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        if (rpcSubscribed) {
            rpcSubscribed = false;
            server.getSessionLink().subscribe(device, this, SessionSubscribeMsg.Topic.RPC, false);
        }
        // RPC requests published at QoS 1 and not acknowledged did not reach the device: their actor sends them to the
        // next session (after the unsubscription above, which it hears of first)
        awaitingAck.values().stream().filter(id -> id >= 0).forEach(id -> server.getSessionLink().rpcDelivery(device,
                sessionId, id, false));
        awaitingAck.clear();
        if (attributesSubscribed) {
            attributesSubscribed = false;
            server.getSessionLink().subscribe(device, this, SessionSubscribeMsg.Topic.ATTRIBUTES, false);
        }
        if (device != null) {
            server.unregister(device, this);
            server.getMetrics().connectionClosed();
        }
        if (closing || stopping) {
            // closed by the server: what was read but not taken is dropped (QoS 1: never acknowledged)
            server.getMetrics().dropped(waiting.size());
            waiting.clear();
        }
        // closed by the client: what it sent before leaving is still taken, in order
        updateReading();
        pump();
        super.channelInactive(context);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (cause instanceof IOException) {
            log.debug("MQTT connection of {} failed: {}", who(), cause.toString());
            context.close();
        } else {
            close("an error: " + cause, true);
        }
    }

    /** Another connection with the same access token took over: close this one, as brokers do. */
    void takenOver() {
        ctx.executor().execute(() -> {
            if (!closing) {
                log.info("Closing the MQTT connection of {}: a new connection with the same access token took over", who());
                closing = true;
                server.getMetrics().dropped(waiting.size());
                waiting.clear();
                ctx.close();
            }
        });
    }

    /**
     * Starts a graceful stop: nothing more is read or taken; the messages in flight go on to be stored and
     * acknowledged.
     *
     * @return completes when nothing of this connection is in flight
     */
    CompletableFuture<Void> beginStop() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (ctx == null) {
            done.complete(null);
            return done;
        }
        ctx.executor().execute(() -> {
            stopping = true;
            server.getMetrics().dropped(waiting.size());
            waiting.clear();
            updateReading();
            if (inFlight.isEmpty()) {
                done.complete(null);
            } else {
                drained = done;
            }
        });
        return done;
    }

    /**
     * Ends the connection because of what the client sent: an MQTT 5 client is told why with a DISCONNECT and its
     * reason code first; a 3.1.1 client has no such packet, so the reason goes to the log only (as with
     * {@link #close}).
     */
    private void disconnect(byte reasonCode, String reason) {
        if (closing) {
            return;
        }
        if (protocolLevel == MQTT_5 && ctx.channel().isActive()) {
            closing = true;
            log.warn("Closing the MQTT connection of {}: it sent {}", who(), reason);
            ctx.writeAndFlush(MqttMessageBuilders.disconnect().reasonCode(reasonCode).build())
                    .addListener(done -> ctx.close());
            return;
        }
        close(reason, true);
    }

    private void close(String reason, boolean warn) {
        if (closing) {
            return;
        }
        closing = true;
        if (warn) {
            log.warn("Closing the MQTT connection of {}: it sent {}", who(), reason);
        }
        ctx.close();
    }

    private String who() {
        return (device != null ? "device " + device.name() + " (" + device.id() + ")" : "an unauthenticated client")
                + " at " + ctx.channel().remoteAddress();
    }

    @Override
    public String toString() {
        return "MqttDeviceSession[" + (ctx != null ? who() : "new") + "]";
    }

    private enum Step { TAKEN, BLOCKED }

    private record Publish(String topic, MqttQoS qos, int packetId, byte[] payload) {
    }

    private static final class InFlight {
        private final int packetId;
        private boolean done;
        private byte reasonCode;

        private InFlight(int packetId) {
            this.packetId = packetId;
        }
    }
}
