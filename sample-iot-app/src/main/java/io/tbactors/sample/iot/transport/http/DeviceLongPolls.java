package io.tbactors.sample.iot.transport.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.core.dispatch.NamedThreadFactory;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.ingestion.DeviceRequests;
import io.tbactors.sample.iot.ingestion.DeviceSessionLink;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.sample.iot.web.ProblemResponses;
import jakarta.annotation.PreDestroy;
import lombok.extern.slf4j.Slf4j;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * ThingsBoard's HTTP device API beside readings: the long polls {@code GET /api/v1/{token}/rpc?timeout=} (the next
 * server-side RPC request, {@code {"id", "method", "params"}}) and {@code GET /api/v1/{token}/attributes/updates?timeout=}
 * (the next shared-attribute update), both 408 when nothing came in time, as ThingsBoard answers; the device's answer
 * {@code POST /api/v1/{token}/rpc/{id}}; client-side RPC {@code POST /api/v1/{token}/rpc}; attribute requests
 * {@code GET /api/v1/{token}/attributes?clientKeys=&sharedKeys=}.
 *
 * <p>A long poll is a one-shot session of the device's actor: it subscribes, takes the first request or update (the
 * actor keeps a request the poll could not take, e.g. because it had just timed out, for the next session), then
 * unsubscribes. No thread waits for it. At most {@code sample.device-api.max-long-polls} wait at once; past it a poll
 * gets 429 with {@code Retry-After}. A poll whose client closes its connection ends at once ({@link LongPoll#clientGone}:
 * on the servlet container's notice of an error, and, since the container does not notice a client that closes an idle
 * connection, when the kernel shows the connection closed, see {@link #watchConnection}), giving its slot and its
 * session back; an RPC request a poll took counts as
 * delivered once its answer is written, and waits for the next session when it could not be.
 */
@Slf4j
@Component
public class DeviceLongPolls {

    /** How often the connections of waiting polls are looked at for clients that closed them. */
    static final long CLOSE_CHECK_INTERVAL_MS = 1_000;

    /** What a poll whose client left ends with; never written (nobody reads it). */
    private static final ResponseEntity<Object> CLIENT_GONE = ResponseEntity.status(HttpStatus.REQUEST_TIMEOUT).build();

    private final DeviceService deviceService;
    private final DeviceSessionLink sessionLink;
    private final DeviceRequests requests;
    private final SampleProperties.DeviceApi settings;
    private final JsonMapper jsonMapper;
    private final Duration clientRpcTimeout;
    private final AtomicInteger waiting = new AtomicInteger();
    private final ScheduledExecutorService timeouts =
            Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("device-api-polls"));
    private final OpenConnections connections;
    /** The waiting polls whose connections are watched, with their connection's key. */
    private final Map<LongPoll, Integer> watched = new ConcurrentHashMap<>();

    /**
     * @param deviceService finds devices by token
     * @param sessionLink subscribes the polls with the device actors, takes the devices' answers
     * @param requests answers attribute requests and client-side RPC
     * @param properties {@code sample.device-api.*}
     * @param jsonMapper reads the rule chain's answers to client-side RPC
     */
    public DeviceLongPolls(DeviceService deviceService, DeviceSessionLink sessionLink, DeviceRequests requests,
                           SampleProperties properties, JsonMapper jsonMapper) {
        this.deviceService = deviceService;
        this.sessionLink = sessionLink;
        this.requests = requests;
        this.settings = properties.getDeviceApi();
        this.jsonMapper = jsonMapper;
        this.clientRpcTimeout = properties.getRpc().getClientSideTimeout();
        this.connections = new OpenConnections();
        if (connections.supported()) {
            timeouts.scheduleWithFixedDelay(this::endPollsOfClosedConnections, CLOSE_CHECK_INTERVAL_MS,
                    CLOSE_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Watches a waiting poll's connection: when its client closes it, the poll ends within
     * {@value #CLOSE_CHECK_INTERVAL_MS} ms ({@link LongPoll#clientGone}), where the kernel's connection tables can be
     * read ({@link OpenConnections}); elsewhere it waits for its timeout.
     *
     * @param poll the poll
     * @param localPort the connection's port on this server
     * @param remotePort the client's port
     */
    public void watchConnection(LongPoll poll, int localPort, int remotePort) {
        if (poll.session == null || !connections.supported()) {
            return;
        }
        watched.put(poll, OpenConnections.key(localPort, remotePort));
        poll.answer.whenComplete((answer, never) -> watched.remove(poll));
    }

    private void endPollsOfClosedConnections() {
        if (watched.isEmpty()) {
            return;
        }
        Set<Integer> open = connections.established();
        if (open != null) {
            watched.forEach((poll, connection) -> {
                if (!open.contains(connection)) {
                    poll.clientGone();
                }
            });
        }
    }

    /** @return the long polls waiting now */
    public int getWaiting() {
        return waiting.get();
    }

    /**
     * @param timeoutParam the {@code timeout} parameter, milliseconds, or null
     * @return how long the poll may wait
     * @throws ApiException 400 for a timeout that is not a number or out of range
     */
    public long timeoutMs(String timeoutParam) {
        if (timeoutParam == null || timeoutParam.isBlank() || "0".equals(timeoutParam)) {
            return settings.getLongPollDefaultTimeout().toMillis();
        }
        long max = settings.getLongPollMaxTimeout().toMillis();
        try {
            long timeout = Long.parseLong(timeoutParam.trim());
            if (timeout > 0 && timeout <= max) {
                return timeout;
            }
        } catch (NumberFormatException notANumber) {
            // answered below
        }
        throw new ApiException(HttpStatus.BAD_REQUEST, "timeout must be a number of milliseconds from 1 to " + max
                + " (sample.device-api.long-poll-max-timeout)");
    }

    /**
     * @param token the device's access token
     * @param timeoutMs how long to wait
     * @param path the request path, for problem details
     * @return the poll: its answer, 200 with the next request, 408 when none came in time, or the refusal
     */
    public LongPoll pollRpc(String token, long timeoutMs, String path) {
        return poll(token, SessionSubscribeMsg.Topic.RPC, timeoutMs, path);
    }

    /**
     * @param token the device's access token
     * @param timeoutMs how long to wait
     * @param path the request path, for problem details
     * @return the poll: its answer, 200 with the next shared-attribute update, 408 when none came in time, or the
     *     refusal
     */
    public LongPoll pollAttributeUpdates(String token, long timeoutMs, String path) {
        return poll(token, SessionSubscribeMsg.Topic.ATTRIBUTES, timeoutMs, path);
    }

    /**
     * @param token the device's access token
     * @param requestId the path's request id
     * @param body the device's answer
     * @param path the request path, for problem details
     * @return 200 once its actor has it
     */
    public CompletableFuture<ResponseEntity<Object>> rpcResponse(String token, String requestId, byte[] body, String path) {
        Device device = device(token);
        int id;
        try {
            id = Integer.parseInt(requestId);
        } catch (NumberFormatException notANumber) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "The request id '" + requestId + "' is not a number: answer "
                    + "on /api/v1/{token}/rpc/{id} with the id the request came with");
        }
        if (!sessionLink.rpcResponse(device, id, new String(body, StandardCharsets.UTF_8))) {
            throw notRunning();
        }
        return CompletableFuture.completedFuture(ResponseEntity.ok().build());
    }

    /**
     * A device's own RPC request, answered by the tenant's rule chain (its {@code rpc-call-reply} node).
     *
     * @param token the device's access token
     * @param body {@code {"method", "params"}}
     * @param path the request path, for problem details
     * @return 200 with the chain's answer; 408 when nothing answered within {@code sample.rpc.client-side-timeout}
     *     (ThingsBoard's status for it); 429 when the device has its most requests waiting; 503 when not running
     */
    public CompletableFuture<ResponseEntity<Object>> clientRpc(String token, byte[] body, String path) {
        Device device = device(token);
        DeviceRequests.ClientRpcRequest request = requests.parseClientRpc(body);
        // one request, one session: the id only has to be unique among this device's waiting requests
        return sessionLink.clientRpc(device, UUID.randomUUID(), 0, request).thenApply(outcome -> switch (outcome.status()) {
            case SUCCESSFUL -> ResponseEntity.ok(jsonMapper.readTree(outcome.response()));
            case TIMEOUT -> ProblemResponses.of(HttpStatus.REQUEST_TIMEOUT, outcome.reason(), path);
            default -> ProblemResponses.of(outcome.refused() ? HttpStatus.TOO_MANY_REQUESTS : HttpStatus.SERVICE_UNAVAILABLE,
                    outcome.reason(), path);
        });
    }

    /**
     * @param token the device's access token
     * @param clientKeys comma-separated client keys, or null
     * @param sharedKeys comma-separated shared keys, or null
     * @param path the request path, for problem details
     * @return 200 with {@code {"client": {...}, "shared": {...}}}
     */
    public CompletableFuture<ResponseEntity<Object>> attributes(String token, String clientKeys, String sharedKeys,
                                                                String path) {
        Device device = device(token);
        return requests.readAttributes(device, DeviceRequests.AttributesQuery.of(clientKeys, sharedKeys))
                .handle((answer, failure) -> failure == null ? ResponseEntity.ok(answer)
                        : ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE, "The attributes could not be read: "
                                + ProblemResponses.rootMessage(failure), path));
    }

    private LongPoll poll(String token, SessionSubscribeMsg.Topic topic, long timeoutMs, String path) {
        Device device = device(token);
        if (waiting.incrementAndGet() > settings.getMaxLongPolls()) {
            waiting.decrementAndGet();
            return new LongPoll(CompletableFuture.completedFuture(ProblemResponses.of(HttpStatus.TOO_MANY_REQUESTS,
                    settings.getMaxLongPolls() + " long polls already wait, the most this server keeps "
                    + "(sample.device-api.max-long-polls); poll again later", path)), null);
        }
        PollSession session = new PollSession(device, sessionLink);
        ScheduledFuture<?> timer = timeouts.schedule(() -> session.answer.complete(ProblemResponses.of(
                HttpStatus.REQUEST_TIMEOUT, "Nothing for the device within " + timeoutMs + " ms", path)),
                timeoutMs, TimeUnit.MILLISECONDS);
        session.answer.whenComplete((answer, never) -> {
            timer.cancel(false);
            waiting.decrementAndGet();
            sessionLink.subscribe(device, session, topic, false);
        });
        if (!sessionLink.subscribe(device, session, topic, true)) {
            session.answer.complete(ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE, notRunning().getMessage(), path));
        }
        return new LongPoll(session.answer, session);
    }

    /**
     * A long poll as its transport sees it: the answer to write, and what the transport tells back (the client left;
     * the answer was written or not).
     */
    public static final class LongPoll {

        private final CompletableFuture<ResponseEntity<Object>> answer;
        private final PollSession session;

        private LongPoll(CompletableFuture<ResponseEntity<Object>> answer, PollSession session) {
            this.answer = answer;
            this.session = session;
        }

        /** @return completes with what to answer the poll */
        public CompletableFuture<ResponseEntity<Object>> answer() {
            return answer;
        }

        /**
         * The client closed its connection (or the container ended the request): the poll ends now, so its slot and
         * its session with the device's actor go, and it takes nothing more. Nothing once it has its answer.
         */
        public void clientGone() {
            if (session != null && session.answer.complete(CLIENT_GONE)) {
                log.debug("A long poll of device {} ended early: its client closed the connection", session.device.id());
            }
        }

        /**
         * Tells the device's actor whether the server-side RPC request this poll took (if any) reached the device: a
         * request whose answer could not be written waits for the device's next session.
         *
         * @param ok whether the answer was written to the connection
         */
        public void written(boolean ok) {
            if (session != null && session.rpcRequestId != null) {
                session.link.rpcDelivery(session.device, session.id, session.rpcRequestId, ok);
            }
        }
    }

    private Device device(String token) {
        return deviceService.findByAccessToken(token)
                .orElseThrow(() -> new ApiException(HttpStatus.UNAUTHORIZED, "Unknown device access token"));
    }

    private static ApiException notRunning() {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "The actors are not running (the node is starting or "
                + "stopping); send it again later");
    }

    /** @return the longest a client-side RPC waits for the chain's answer, for the container's own timeout */
    public Duration getClientRpcTimeout() {
        return clientRpcTimeout;
    }

    /** @return the default wait of a long poll, for the container's own timeout */
    public Duration getMaxTimeout() {
        return settings.getLongPollMaxTimeout();
    }

    @PreDestroy
    void stop() {
        timeouts.shutdownNow();
    }

    /**
     * A one-shot session: the first request or update answers the poll; after that it takes nothing more. It confirms
     * an RPC request's delivery once the answer is written ({@link LongPoll#written}).
     */
    private static final class PollSession implements DeviceSession {

        private final UUID id = UUID.randomUUID();
        private final CompletableFuture<ResponseEntity<Object>> answer = new CompletableFuture<>();
        private final Device device;
        private final DeviceSessionLink link;
        /** The request it took, once it did. */
        private volatile Integer rpcRequestId;

        private PollSession(Device device, DeviceSessionLink link) {
            this.device = device;
            this.link = link;
        }

        @Override
        public UUID sessionId() {
            return id;
        }

        @Override
        public boolean sendRpcRequest(int requestId, String method, JsonNode params) {
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.put("id", requestId);
            body.put("method", method);
            body.set("params", params);
            // false when the poll already ended (timed out, or its client left): the actor keeps the request for the
            // next session
            // known before the answer completes: the transport writes it (and reports it written) at once
            rpcRequestId = requestId;
            if (!answer.complete(ResponseEntity.ok(body))) {
                rpcRequestId = null;
                return false;
            }
            return true;
        }

        @Override
        public boolean confirmsRpcDelivery() {
            return true;
        }

        @Override
        public boolean sendAttributesUpdate(JsonNode changed) {
            return answer.complete(ResponseEntity.ok(changed));
        }
    }
}
