package io.tbactors.sample.iot.telemetry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.web.ProblemResponses;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import lombok.extern.slf4j.Slf4j;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the device API's request bodies without holding a thread: the body arrives through a non-blocking read
 * listener, and only once it is all there does the request go on (an async dispatch) to the controller, which finds
 * it in the request attribute {@link #BODY}. A client that announces a body and trickles it holds a connection, never
 * one of the server's request threads, and gets 408 after {@code sample.device-api.body-read-timeout}; one that sends
 * more than {@code sample.device-api.max-payload-size} gets 413 as soon as it passes the limit.
 */
@Slf4j
public class DeviceBodyReadFilter extends OncePerRequestFilter {

    /** Request attribute holding the body read by this filter, a {@code byte[]}. */
    public static final String BODY = DeviceBodyReadFilter.class.getName() + ".body";

    private final SampleProperties.DeviceApi settings;
    private final JsonMapper jsonMapper;

    /**
     * @param properties the size limit and the read timeout
     * @param jsonMapper writes the problem details of a refusal
     */
    public DeviceBodyReadFilter(SampleProperties properties, JsonMapper jsonMapper) {
        this.settings = properties.getDeviceApi();
        this.jsonMapper = jsonMapper;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // only the first dispatch of a post with a body that fits; an oversized one goes on to be refused unread
        return !"POST".equals(request.getMethod()) || request.getDispatcherType() != DispatcherType.REQUEST
                || request.getContentLengthLong() > settings.getMaxPayloadSize().toBytes() || !request.isAsyncSupported();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(settings.getBodyReadTimeout().toMillis());
        AtomicBoolean ended = new AtomicBoolean();
        async.addListener(new AsyncListener() {
            @Override
            public void onTimeout(AsyncEvent event) throws IOException {
                if (ended.compareAndSet(false, true)) {
                    refuse(async, HttpStatus.REQUEST_TIMEOUT, "The request body did not arrive within "
                            + settings.getBodyReadTimeout().toMillis() + " ms (sample.device-api.body-read-timeout)");
                }
            }

            @Override
            public void onComplete(AsyncEvent event) {
            }

            @Override
            public void onError(AsyncEvent event) {
                ended.set(true);
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
            }
        });
        ServletInputStream in = request.getInputStream();
        in.setReadListener(new BodyListener(request, in, async, ended));
    }

    private final class BodyListener implements ReadListener {

        private final HttpServletRequest request;
        private final ServletInputStream in;
        private final AsyncContext async;
        private final AtomicBoolean ended;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final byte[] chunk = new byte[8192];

        private BodyListener(HttpServletRequest request, ServletInputStream in, AsyncContext async, AtomicBoolean ended) {
            this.request = request;
            this.in = in;
            this.async = async;
            this.ended = ended;
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
                    refuse(async, HttpStatus.CONTENT_TOO_LARGE, "Request body is larger than the limit of "
                            + settings.getMaxPayloadSize().toKilobytes() + " KB (sample.device-api.max-payload-size)");
                    return;
                }
            }
        }

        @Override
        public void onAllDataRead() {
            if (ended.compareAndSet(false, true)) {
                request.setAttribute(BODY, body.toByteArray());
                async.dispatch();
            }
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
                            + "connection timeout (server.tomcat.connection-timeout)");
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

    private void refuse(AsyncContext async, HttpStatus status, String detail) throws IOException {
        HttpServletRequest request = (HttpServletRequest) async.getRequest();
        HttpServletResponse response = (HttpServletResponse) async.getResponse();
        try {
            response.setStatus(status.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            // the rest of the body is not read: the connection cannot carry another request
            response.setHeader("Connection", "close");
            jsonMapper.writeValue(response.getOutputStream(), ProblemResponses.problem(status, detail, request.getRequestURI()));
        } finally {
            async.complete();
        }
    }
}
