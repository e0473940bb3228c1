package io.tbactors.sample.iot.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.sample.iot.web.LogText;
import io.tbactors.sample.iot.web.ProblemResponses;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import lombok.extern.slf4j.Slf4j;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

/**
 * The device API's HTTP endpoint, {@code POST /api/v1/{accessToken}/telemetry} and {@code .../attributes}, a servlet
 * of its own beside Spring MVC's: one request is one container dispatch, and no thread waits, neither for the body
 * nor for the answer. The body arrives through a non-blocking read listener; once it is all there,
 * {@link DeviceApiHandler} admits, parses and submits it, and whichever thread completes its future writes the answer
 * and completes the request. (Through Spring MVC the same request took three dispatches, each through every filter:
 * the first, the one after the body was read, and the one after the future completed; they cost most of the CPU
 * of a single-reading post.)
 *
 * <p>A client that announces a body and trickles it holds a connection, never one of the server's request threads,
 * and gets 408 after {@code sample.device-api.body-read-timeout}; one that declares or sends more than
 * {@code sample.device-api.max-payload-size} gets 413 (at once, or as soon as it passes the limit). Other paths under
 * {@code /api/v1/} get 404 and other methods 405, all as problem details.
 *
 * <p>Its requests are timed by {@value #REQUESTS_METER} (tag {@code outcome}: {@code SUCCESS}, {@code CLIENT_ERROR},
 * {@code SERVER_ERROR}), three timers registered once, instead of {@code http.server.requests}: that observation per
 * request and Spring Security's held single-reading posts about a quarter lower (BENCHMARKS.md).
 */
@Slf4j
public class DeviceApiServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** The start of a long poll, which waits by design: not in the requests' timer, whose latencies it would skew. */
    private static final long NOT_TIMED = Long.MIN_VALUE;

    /** Added to a request's own deadline for the container's timeout, which only backs it up. */
    private static final long CONTAINER_TIMEOUT_MARGIN_MS = 5_000;

    /** The meter of the device API's requests (which {@code http.server.requests} leaves out), by outcome. */
    public static final String REQUESTS_METER = "sample.iot.device.api.requests";

    private final transient SampleProperties.DeviceApi settings;
    private final transient DeviceApiHandler handler;
    private final transient DeviceLongPolls longPolls;
    private final transient JsonMapper jsonMapper;
    private final transient Timer succeeded;
    private final transient Timer clientErrors;
    private final transient Timer serverErrors;

    /**
     * @param properties the size limit and the read and reply timeouts
     * @param handler admits, parses and submits the readings
     * @param longPolls the long polls, RPC answers, client-side RPC and attribute requests
     * @param jsonMapper writes the problem details
     * @param meters where the requests' timer is registered
     */
    public DeviceApiServlet(SampleProperties properties, DeviceApiHandler handler, DeviceLongPolls longPolls,
                            JsonMapper jsonMapper, MeterRegistry meters) {
        this.settings = properties.getDeviceApi();
        this.handler = handler;
        this.longPolls = longPolls;
        this.jsonMapper = jsonMapper;
        // registered once: a request records into one of three timers, no meter lookup per request
        this.succeeded = timer(meters, "SUCCESS");
        this.clientErrors = timer(meters, "CLIENT_ERROR");
        this.serverErrors = timer(meters, "SERVER_ERROR");
    }

    private static Timer timer(MeterRegistry meters, String outcome) {
        return Timer.builder(REQUESTS_METER).description("Device API posts, from the request to the answer (200: stored)")
                .tag("outcome", outcome).register(meters);
    }

    private void record(long startedNanos, int status) {
        if (startedNanos == NOT_TIMED) {
            return;
        }
        Timer timer = status < 400 ? succeeded : status < 500 ? clientErrors : serverErrors;
        timer.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * What a path under {@code /api/v1/} names: {@code /{token}/{resource}} or {@code /{token}/{resource}/{sub}}.
     *
     * @param accessToken the device's token
     * @param resource {@code telemetry}, {@code attributes} or {@code rpc}
     * @param sub {@code updates} (attributes) or a request id (rpc), else null
     */
    private record Target(String accessToken, String resource, String sub) {

        /** @return the target, or null when the path names no device API resource */
        static Target of(String pathInfo) {
            if (pathInfo == null || pathInfo.length() < 2 || pathInfo.charAt(0) != '/') {
                return null;
            }
            String[] parts = pathInfo.substring(1).split("/", -1);
            if (parts.length < 2 || parts.length > 3 || parts[0].isEmpty()) {
                return null;
            }
            String sub = parts.length == 3 ? parts[2] : null;
            boolean known = switch (parts[1]) {
                case "telemetry" -> sub == null;
                case "attributes" -> sub == null || "updates".equals(sub);
                case "rpc" -> sub == null || !sub.isEmpty();
                default -> false;
            };
            return known ? new Target(parts[0], parts[1], sub) : null;
        }

        /** @return the one method this target takes, or null when it takes GET and POST ({@code /rpc}) */
        String method() {
            return switch (resource) {
                case "telemetry" -> "POST";
                case "attributes" -> sub == null ? null : "GET";
                default -> sub == null ? null : "POST";
            };
        }

        /** @return whether a POST is a device's own RPC request, which waits for the rule chain's answer */
        boolean clientRpc() {
            return "rpc".equals(resource) && sub == null;
        }

        /** @return whether a GET is a long poll */
        boolean longPoll() {
            return "rpc".equals(resource) || "updates".equals(sub);
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long started = System.nanoTime();
        Target target = Target.of(request.getPathInfo());
        if (target == null) {
            writeProblem(response, HttpStatus.NOT_FOUND, "No device API resource at this path; the device API is "
                    + "POST /api/v1/{accessToken}/telemetry, POST and GET /api/v1/{accessToken}/attributes, "
                    + "GET /api/v1/{accessToken}/attributes/updates, GET and POST /api/v1/{accessToken}/rpc and "
                    + "POST /api/v1/{accessToken}/rpc/{id}", request);
            record(started, HttpStatus.NOT_FOUND.value());
            return;
        }
        String allowed = target.method();
        boolean get = "GET".equals(request.getMethod());
        if (allowed != null ? !allowed.equals(request.getMethod()) : !get && !"POST".equals(request.getMethod())) {
            response.setHeader(HttpHeaders.ALLOW, allowed != null ? allowed : "GET, POST");
            writeProblem(response, HttpStatus.METHOD_NOT_ALLOWED, "This device API resource takes "
                    + (allowed != null ? allowed + " only" : "GET and POST") + ", not " + LogText.escape(request.getMethod()),
                    request);
            record(started, HttpStatus.METHOD_NOT_ALLOWED.value());
            return;
        }
        if (get) {
            serveGet(target, request, response, started);
            return;
        }
        if (request.getContentLengthLong() > settings.getMaxPayloadSize().toBytes()) {
            // refused unread: the connection cannot carry another request
            response.setHeader(HttpHeaders.CONNECTION, "close");
            writeProblem(response, HttpStatus.CONTENT_TOO_LARGE, tooLarge(), request);
            record(started, HttpStatus.CONTENT_TOO_LARGE.value());
            return;
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(settings.getBodyReadTimeout().toMillis());
        AtomicBoolean bodyRead = new AtomicBoolean();
        async.addListener(new TimeoutListener(async, bodyRead, started));
        ServletInputStream in = request.getInputStream();
        in.setReadListener(new BodyListener(target, request, in, async, bodyRead, started));
    }

    /** A GET needs no body: an attribute request or a long poll, answered when its future completes. */
    private void serveGet(Target target, HttpServletRequest request, HttpServletResponse response, long started) {
        String path = request.getRequestURI();
        AsyncContext async = request.startAsync(request, response);
        try {
            if (target.longPoll()) {
                long timeoutMs = longPolls.timeoutMs(request.getParameter("timeout"));
                // the poll's own timeout answers (408); the container's only backs it up
                async.setTimeout(timeoutMs + CONTAINER_TIMEOUT_MARGIN_MS);
                DeviceLongPolls.LongPoll poll = "rpc".equals(target.resource())
                        ? longPolls.pollRpc(target.accessToken(), timeoutMs, path)
                        : longPolls.pollAttributeUpdates(target.accessToken(), timeoutMs, path);
                // the container's notice that the request ended otherwise (the client closed the connection, its own
                // timeout) ends the poll at once: its slot and its session with the device's actor go
                async.addListener(new PollEndListener(poll));
                longPolls.watchConnection(poll, request.getLocalPort(), request.getRemotePort());
                poll.answer().whenComplete((entity, never) -> poll.written(answer(async, entity, NOT_TIMED, true)));
                return;
            }
            async.setTimeout(settings.getReplyTimeout().toMillis() + CONTAINER_TIMEOUT_MARGIN_MS);
            longPolls.attributes(target.accessToken(), request.getParameter("clientKeys"), request.getParameter("sharedKeys"),
                    path).whenComplete((entity, never) -> answer(async, entity, started));
        } catch (ApiException refused) {
            answer(async, ProblemResponses.of(refused.getStatus(), refused.getMessage(), path),
                    target.longPoll() ? NOT_TIMED : started);
        } catch (RuntimeException unexpected) {
            log.error("Unexpected failure of GET {}", LogText.escape(path), unexpected);
            answer(async, ProblemResponses.of(HttpStatus.INTERNAL_SERVER_ERROR, "Unexpected server error; see the server "
                    + "log", path), target.longPoll() ? NOT_TIMED : started);
        }
    }

    /** Ends a long poll when its request ends before the poll answered: an error (the client left) or a timeout. */
    private static final class PollEndListener implements AsyncListener {

        private final DeviceLongPolls.LongPoll poll;

        private PollEndListener(DeviceLongPolls.LongPoll poll) {
            this.poll = poll;
        }

        @Override
        public void onError(AsyncEvent event) {
            poll.clientGone();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            poll.clientGone();
        }

        @Override
        public void onComplete(AsyncEvent event) {
            poll.clientGone();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }

    /** Dispatches a POST whose body is all read. */
    private CompletableFuture<ResponseEntity<Object>> post(Target target, byte[] body, String path) {
        try {
            return switch (target.resource()) {
                case "telemetry" -> handler.postTelemetry(target.accessToken(), body, path);
                case "attributes" -> handler.postAttributes(target.accessToken(), body, path);
                default -> target.sub() == null ? longPolls.clientRpc(target.accessToken(), body, path)
                        : longPolls.rpcResponse(target.accessToken(), target.sub(), body, path);
            };
        } catch (ApiException refused) {
            return CompletableFuture.completedFuture(ProblemResponses.of(refused.getStatus(), refused.getMessage(), path));
        }
    }

    private String tooLarge() {
        return "Request body is larger than the limit of " + settings.getMaxPayloadSize().toKilobytes()
                + " KB (sample.device-api.max-payload-size)";
    }

    /** Answers 408 when the body has not arrived within the body-read timeout. */
    private final class TimeoutListener implements AsyncListener {

        private final AsyncContext async;
        private final AtomicBoolean bodyRead;
        private final long started;

        private TimeoutListener(AsyncContext async, AtomicBoolean bodyRead, long started) {
            this.async = async;
            this.bodyRead = bodyRead;
            this.started = started;
        }

        @Override
        public void onTimeout(AsyncEvent event) throws IOException {
            if (bodyRead.compareAndSet(false, true)) {
                refuse(async, HttpStatus.REQUEST_TIMEOUT, "The request body did not arrive within "
                        + settings.getBodyReadTimeout().toMillis() + " ms (sample.device-api.body-read-timeout)", started);
            } else {
                // past the reply timeout's own answer (which comes first): nothing more to wait for
                async.complete();
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
            bodyRead.set(true);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }

    /** A request's body as it is read; sized by its declared length, so a full body is handed on without a copy. */
    private static final class BodyBuffer extends ByteArrayOutputStream {

        BodyBuffer(int size) {
            super(size);
        }

        /** @return the bytes read: the buffer itself when the body filled it exactly, as a declared length does */
        byte[] bytes() {
            return count == buf.length ? buf : toByteArray();
        }
    }

    private final class BodyListener implements ReadListener {

        private final Target target;
        private final HttpServletRequest request;
        private final ServletInputStream in;
        private final AsyncContext async;
        private final AtomicBoolean ended;
        private final BodyBuffer body;
        private final byte[] chunk = new byte[8192];
        private final long started;

        private BodyListener(Target target, HttpServletRequest request, ServletInputStream in, AsyncContext async,
                             AtomicBoolean ended, long started) {
            this.started = started;
            this.target = target;
            this.request = request;
            this.in = in;
            this.async = async;
            this.ended = ended;
            long declared = request.getContentLengthLong();
            this.body = new BodyBuffer(declared > 0 ? (int) declared : 256);
        }

        @Override
        public void onDataAvailable() throws IOException {
            long max = settings.getMaxPayloadSize().toBytes();
            while (in.isReady() && !in.isFinished()) {
                int read = in.read(chunk);
                if (read < 0) {
                    return;
                }
                body.write(chunk, 0, read);
                if (body.size() > max && ended.compareAndSet(false, true)) {
                    refuse(async, HttpStatus.CONTENT_TOO_LARGE, tooLarge(), started);
                    return;
                }
            }
        }

        @Override
        public void onAllDataRead() {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            // from here the reply timeout answers (503; a client-side RPC's own timeout, 408); the container's own
            // timeout only backs it up
            async.setTimeout(settings.getBodyReadTimeout().plus(target.clientRpc() ? longPolls.getClientRpcTimeout()
                    : settings.getReplyTimeout()).plusSeconds(5).toMillis());
            String path = request.getRequestURI();
            CompletableFuture<ResponseEntity<Object>> answer;
            try {
                answer = post(target, body.bytes(), path);
            } catch (RuntimeException unexpected) {
                log.error("Unexpected failure of POST {}", LogText.escape(path), unexpected);
                answer = CompletableFuture.completedFuture(ProblemResponses.of(HttpStatus.INTERNAL_SERVER_ERROR,
                        "Unexpected server error; see the server log", path));
            }
            // a client-side RPC waits for the rule chain by design: left out of the requests' timer, as long polls are
            long timed = target.clientRpc() ? NOT_TIMED : started;
            answer.whenComplete((entity, never) -> answer(async, entity, timed));
        }

        @Override
        public void onError(Throwable failure) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            if (log.isDebugEnabled()) {
                log.debug("Device API body read failed: {}", failure.toString());
            }
            if (isTimeout(failure)) {
                // the socket's own read timeout came first: the same answer as the body's deadline
                try {
                    refuse(async, HttpStatus.REQUEST_TIMEOUT, "The request body stopped arriving for longer than the "
                            + "connection timeout (server.tomcat.connection-timeout)", started);
                } catch (IOException | IllegalStateException cannotAnswer) {
                    async.complete();
                }
            } else {
                // the client went away or the connection broke: nobody to answer
                async.complete();
            }
        }
    }

    private static boolean isTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Writes the handler's answer and ends the request, on whichever thread the answer came. */
    private void answer(AsyncContext async, ResponseEntity<Object> entity, long started) {
        answer(async, entity, started, false);
    }

    /**
     * Writes the handler's answer and ends the request, on whichever thread the answer came.
     *
     * @param flush whether to send it to the connection before ending the request, so that a connection the client
     *     closed shows in the result (a long poll's request must know whether it was written)
     * @return whether the answer was written (false: the client went away, or the request had ended)
     */
    private boolean answer(AsyncContext async, ResponseEntity<Object> entity, long started, boolean flush) {
        record(started, entity.getStatusCode().value());
        boolean written = false;
        try {
            HttpServletResponse response = (HttpServletResponse) async.getResponse();
            response.setStatus(entity.getStatusCode().value());
            entity.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
            if (entity.getBody() != null) {
                response.setContentType(entity.getBody() instanceof ProblemDetail ? MediaType.APPLICATION_PROBLEM_JSON_VALUE
                        : MediaType.APPLICATION_JSON_VALUE);
                if (flush) {
                    // its length known, so that flushing does not switch the answer to chunks
                    byte[] body = jsonMapper.writeValueAsBytes(entity.getBody());
                    response.setContentLength(body.length);
                    response.getOutputStream().write(body);
                } else {
                    jsonMapper.writeValue(response.getOutputStream(), entity.getBody());
                }
            } else {
                response.setContentLength(0);
            }
            if (flush) {
                // sent now, so that a connection the client closed shows here
                response.flushBuffer();
            }
            written = true;
        } catch (IOException | RuntimeException cannotAnswer) {
            // the client went away, or the request already ended (its container timeout): nobody to answer
            if (log.isDebugEnabled()) {
                log.debug("Device API answer not written: {}", cannotAnswer.toString());
            }
        } finally {
            try {
                async.complete();
            } catch (IllegalStateException alreadyEnded) {
                // ended by the container (timeout, error) meanwhile
                written = false;
            }
        }
        return written;
    }

    private void refuse(AsyncContext async, HttpStatus status, String detail, long started) throws IOException {
        record(started, status.value());
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        try {
            // the rest of the body is not read: the connection cannot carry another request
            response.setHeader(HttpHeaders.CONNECTION, "close");
            writeProblem(response, status, detail, (HttpServletRequest) async.getRequest());
        } finally {
            async.complete();
        }
    }

    private void writeProblem(HttpServletResponse response, HttpStatus status, String detail, HttpServletRequest request)
            throws IOException {
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        jsonMapper.writeValue(response.getOutputStream(), ProblemResponses.problem(status, detail, request.getRequestURI()));
    }
}
