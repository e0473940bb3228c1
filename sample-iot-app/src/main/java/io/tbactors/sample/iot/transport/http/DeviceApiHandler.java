package io.tbactors.sample.iot.transport.http;

import io.tbactors.core.dispatch.NamedThreadFactory;
import io.tbactors.kafka.TbClusterRemoteFailureException;
import io.tbactors.rule.MessageNotAcceptedException;
import io.tbactors.rule.RuleChainFailureException;
import io.tbactors.rule.TbMsgType;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.ingestion.DeviceIngestion;
import io.tbactors.sample.iot.ingestion.DevicePayloadParser;
import io.tbactors.sample.iot.actors.msg.TsEntry;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.storage.DeviceDeletedException;
import io.tbactors.sample.iot.storage.WriteBehindQueue;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.sample.iot.web.LogText;
import io.tbactors.sample.iot.web.ProblemResponses;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lombok.extern.slf4j.Slf4j;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * The device API's logic, compatible with ThingsBoard's HTTP transport: a device posts with its access token in the
 * path; {@link DeviceApiServlet} reads the body and writes what this returns. A 200 means stored: it comes once the
 * tenant's root rule chain has finished with every reading of the request (asynchronously: no thread waits). A
 * request that finds the device's or the tenant's values in flight at their bound (checked before the body is parsed
 * when there is no room at all, and again with the body's count) is held for room, a few per tenant, for at most
 * {@code sample.device-api.hold-when-full}, and tried again once room comes back ({@link #afterHold}); 429 when it
 * cannot be held or its hold runs out, or when the device's mailbox is full; 500 with
 * the reason when the chain failed on a reading; 503 when a storage write queue is full; 410 when
 * the device was deleted before its readings were stored; 503 when the actor system is shutting down or the chain did
 * not finish within the reply timeout; 400, 401 and 413 for a bad body, an unknown token and a body over the limit.
 * Every answer that is not a 200 carries a problem detail, and every 429 and 503 a {@code Retry-After} (see
 * {@link ProblemResponses#of}).
 */
@Slf4j
@Component
public class DeviceApiHandler {

    private final DeviceService deviceService;
    private final DevicePayloadParser parser;
    private final DeviceIngestion ingestion;
    private final SampleProperties properties;
    private final IotStats stats;
    private final ParseBudget parseBudget;
    /**
     * Where a request held for room is tried again (the thread that gave the room back is a storage writer's or an
     * actor's, which must not parse): two threads, started on demand and ended after 10 s idle.
     */
    private final ThreadPoolExecutor heldRequests = heldRequestsExecutor();

    /**
     * @param deviceService finds a device by its token
     * @param parser parses bodies into readings
     * @param ingestion admits readings into the rule engine
     * @param properties the device API's settings
     * @param stats counts refusals
     */
    public DeviceApiHandler(DeviceService deviceService, DevicePayloadParser parser, DeviceIngestion ingestion,
                            SampleProperties properties, IotStats stats) {
        this.deviceService = deviceService;
        this.parser = parser;
        this.ingestion = ingestion;
        this.properties = properties;
        this.stats = stats;
        this.parseBudget = new ParseBudget(properties.getDeviceApi().getMaxParsing().toBytes());
    }

    private static ThreadPoolExecutor heldRequestsExecutor() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(2, 2, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new NamedThreadFactory("device-api-held"));
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /**
     * @param accessToken the device's token
     * @param body the request body, at most the size limit
     * @param path the request path, for problem details
     * @return completes with 200 once stored, or with the refusal or failure; never exceptionally
     */
    public CompletableFuture<ResponseEntity<Object>> postTelemetry(String accessToken, byte[] body, String path) {
        return post(accessToken, TbMsgType.POST_TELEMETRY_REQUEST, body, path);
    }

    /**
     * @param accessToken the device's token
     * @param body the request body, at most the size limit
     * @param path the request path, for problem details
     * @return completes with 200 once stored, or with the refusal or failure; never exceptionally
     */
    public CompletableFuture<ResponseEntity<Object>> postAttributes(String accessToken, byte[] body, String path) {
        return post(accessToken, TbMsgType.POST_ATTRIBUTES_REQUEST, body, path);
    }

    private CompletableFuture<ResponseEntity<Object>> post(String accessToken, String msgType, byte[] body, String path) {
        try {
            Device device = deviceService.findByAccessToken(accessToken)
                    .orElseThrow(() -> new ApiException(HttpStatus.UNAUTHORIZED, "Unknown device access token"));
            return parseAndSubmit(device, msgType, body, path, true);
        } catch (ApiException refused) {
            return CompletableFuture.completedFuture(ProblemResponses.of(refused.getStatus(), refused.getMessage(), path));
        }
    }

    private CompletableFuture<ResponseEntity<Object>> parseAndSubmit(Device device, String msgType, byte[] body, String path,
                                                                     boolean mayHold) {
        try {
            // no room at all: held, or refused, before the body is parsed, which costs more than the refusal
            CompletableFuture<ResponseEntity<Object>> held = mayHold ? holdIfNoRoom(device, msgType, body, path, 1) : null;
            if (held != null) {
                return held;
            }
            DeviceIngestion.Admission room = ingestion.checkRoom(device);
            if (room != null) {
                return CompletableFuture.completedFuture(refused(room, path));
            }
            if (!parseBudget.tryAcquire(body.length)) {
                stats.deviceRejected();
                return CompletableFuture.completedFuture(ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE, "The server is "
                        + "parsing " + parseBudget.parsing() / 1024 + " KB of device API bodies, at most "
                        + parseBudget.maxBytes() / 1024 + " KB at once (sample.device-api.max-parsing); send it again later",
                        path));
            }
            List<TsEntry> entries;
            try {
                entries = TbMsgType.POST_TELEMETRY_REQUEST.equals(msgType) ? parser.parseTelemetry(body)
                        : List.of(new TsEntry(null, parser.parseAttributes(body)));
            } finally {
                parseBudget.release(body.length);
            }
            int values = DeviceIngestion.valuesOf(entries);
            // some room, not enough for this body: held until all of it fits, with its body unparsed again, so that
            // held requests cost no more than the bodies of requests being read
            held = mayHold ? holdIfNoRoom(device, msgType, body, path, values) : null;
            if (held != null) {
                return held;
            }
            return submit(device, msgType, entries, path);
        } catch (ApiException refused) {
            return CompletableFuture.completedFuture(ProblemResponses.of(refused.getStatus(), refused.getMessage(), path));
        }
    }

    private CompletableFuture<ResponseEntity<Object>> submit(Device device, String msgType, List<TsEntry> entries,
                                                             String path) {
        DeviceIngestion.Admission admission = ingestion.submit(device, msgType, entries);
        if (!admission.accepted()) {
            return CompletableFuture.completedFuture(refused(admission, path));
        }
        long timeoutMs = properties.getDeviceApi().getReplyTimeout().toMillis();
        return admission.processed().copy().orTimeout(timeoutMs, TimeUnit.MILLISECONDS).handle((ok, failure) -> {
            if (failure == null) {
                return ResponseEntity.ok().build();
            }
            stats.deviceRejected();
            return failureResponse(failure, path);
        });
    }

    /**
     * Holds the request when the device or its tenant has no room for its values now.
     *
     * @param values the values it needs room for (1 while its body is unparsed)
     * @return its answer once held and tried again, or null when there is room now or it cannot be held (then it goes
     *     on, and is refused if there is no room)
     */
    private CompletableFuture<ResponseEntity<Object>> holdIfNoRoom(Device device, String msgType, byte[] body, String path,
                                                                   int values) {
        if (ingestion.hasRoom(device, values)) {
            return null;
        }
        CompletableFuture<Boolean> held = ingestion.awaitRoom(device, values);
        return held == null ? null : afterHold(held, device, msgType, body, path);
    }

    /**
     * Once a hold ends, tries the request once more, without holding: with room it is admitted, without (the hold ran
     * out) it is refused as it would have been at first. The try runs on {@link #heldRequests}, not on the thread that
     * gave the room back; after it, the tenant's next held request is woken if room is left.
     */
    private CompletableFuture<ResponseEntity<Object>> afterHold(CompletableFuture<Boolean> held, Device device, String msgType,
                                                                byte[] body, String path) {
        return held.thenComposeAsync(woken -> {
            try {
                return parseAndSubmit(device, msgType, body, path, false);
            } catch (RuntimeException unexpected) {
                // what the servlet does for a request tried at once: off its thread, this one must answer itself
                log.error("Unexpected failure of POST {} after it was held for room", LogText.escape(path), unexpected);
                return CompletableFuture.completedFuture(ProblemResponses.of(HttpStatus.INTERNAL_SERVER_ERROR,
                        "Unexpected server error; see the server log", path));
            } finally {
                if (woken) {
                    ingestion.passRoomOn(device);
                }
            }
        }, heldRequests);
    }

    private static ResponseEntity<Object> refused(DeviceIngestion.Admission admission, String path) {
        return switch (admission.refusal()) {
            case TOO_LARGE -> ProblemResponses.of(HttpStatus.CONTENT_TOO_LARGE, admission.detail(), path);
            case IN_FLIGHT_FULL -> ProblemResponses.of(HttpStatus.TOO_MANY_REQUESTS, "Too many readings in flight, slow down: "
                    + admission.detail(), path);
            case NOT_STARTED -> ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE, admission.detail(), path);
        };
    }

    private ResponseEntity<Object> failureResponse(Throwable failure, String path) {
        Throwable cause = unwrap(failure);
        if (cause instanceof RuleChainFailureException chainFailed
                && chainFailed.getCause() instanceof WriteBehindQueue.QueueFullException full) {
            return ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE, "The storage queue is full, so the reading was not stored; "
                    + "send it again later: " + full.getMessage(), path);
        }
        if (cause instanceof RuleChainFailureException chainFailed
                && chainFailed.getCause() instanceof DeviceDeletedException deleted) {
            return ProblemResponses.of(HttpStatus.GONE, "The device was deleted while the request was processed, so the "
                    + "reading was not stored: " + deleted.getMessage(), path);
        }
        if (cause instanceof RuleChainFailureException chainFailed) {
            return ProblemResponses.of(HttpStatus.INTERNAL_SERVER_ERROR,
                    "The root rule chain failed on the message, so it is not (fully) stored: " + chainFailed.getMessage(), path);
        }
        if (cause instanceof TbClusterRemoteFailureException remote) {
            // the cluster profile: the device's owner node gave the message up after its retries
            HttpStatus status = "FAILED".equals(remote.getReason()) ? HttpStatus.INTERNAL_SERVER_ERROR : HttpStatus.SERVICE_UNAVAILABLE;
            return ProblemResponses.of(status, "The device's owner node gave the message up, so it is not (fully) stored: "
                    + remote.getReason() + ": " + remote.getError(), path);
        }
        if (cause instanceof MessageNotAcceptedException notAccepted && notAccepted.isMailboxFull()) {
            return ProblemResponses.of(HttpStatus.TOO_MANY_REQUESTS, "The device sends faster than it is processed, slow "
                    + "down: " + notAccepted.getMessage(), path);
        }
        if (cause instanceof TimeoutException) {
            return ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE, "The message was not stored within "
                    + properties.getDeviceApi().getReplyTimeout().toMillis() + " ms (sample.device-api.reply-timeout); "
                    + "it may still be stored", path);
        }
        return ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE,
                "The message was not processed, send it again later: " + ProblemResponses.rootMessage(failure), path);
    }

    /**
     * @param failure how a future failed
     * @return the failure inside the {@link CompletionException}s around it
     */
    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
