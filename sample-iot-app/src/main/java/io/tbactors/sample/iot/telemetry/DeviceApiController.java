package io.tbactors.sample.iot.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.tbactors.sample.iot.actors.msg.DeviceDataMsg;
import io.tbactors.sample.iot.actors.msg.MessageNotAcceptedException;
import io.tbactors.sample.iot.cluster.ClusterDevicePublisher;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.TbMsgType;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.web.ApiException;
import io.tbactors.sample.iot.web.ProblemResponses;
import io.tbactors.spring.ActorSystemContext;
import jakarta.servlet.http.HttpServletRequest;
import lombok.RequiredArgsConstructor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The device API, compatible with ThingsBoard's HTTP transport: a device posts with its access token in the path.
 * The reply comes once the device's actor has accepted the message (asynchronously: no servlet thread waits),
 * 429 (with Retry-After) when the device's bounded mailbox is full, or 503 when the actor system is shutting down or
 * does not accept it within the reply timeout.
 */
@RestController
@RequestMapping("/api/v1/{accessToken}")
@RequiredArgsConstructor
public class DeviceApiController {

    private final DeviceService deviceService;
    private final DevicePayloadParser parser;
    private final ActorSystemContext actorSystemContext;
    private final SampleProperties properties;
    private final IotStats stats;
    private ClusterDevicePublisher clusterPublisher;

    /** @param clusterPublisher with the {@code cluster} profile, sends device messages to the device's owner node */
    @Autowired(required = false)
    void setClusterPublisher(ClusterDevicePublisher clusterPublisher) {
        this.clusterPublisher = clusterPublisher;
    }

    /**
     * @param accessToken the device's token
     * @param request the request, whose body is read up to the size limit
     * @return 200 once accepted
     * @throws IOException when reading the body fails
     */
    @PostMapping("/telemetry")
    public CompletableFuture<ResponseEntity<Object>> postTelemetry(@PathVariable String accessToken, HttpServletRequest request)
            throws IOException {
        Device device = authenticate(accessToken, request);
        List<TsEntry> entries = parser.parseTelemetry(readBody(request));
        return submit(device, TbMsgType.POST_TELEMETRY_REQUEST, entries, request);
    }

    /**
     * @param accessToken the device's token
     * @param request the request, whose body is read up to the size limit
     * @return 200 once accepted
     * @throws IOException when reading the body fails
     */
    @PostMapping("/attributes")
    public CompletableFuture<ResponseEntity<Object>> postAttributes(@PathVariable String accessToken, HttpServletRequest request)
            throws IOException {
        Device device = authenticate(accessToken, request);
        List<TsEntry> entries = List.of(new TsEntry(null, parser.parseAttributes(readBody(request))));
        return submit(device, TbMsgType.POST_ATTRIBUTES_REQUEST, entries, request);
    }

    private Device authenticate(String accessToken, HttpServletRequest request) {
        // refuse an oversized body before anything else, without reading it
        long declared = request.getContentLengthLong();
        if (declared > maxPayloadBytes()) {
            throw tooLarge();
        }
        return deviceService.findByAccessToken(accessToken)
                .orElseThrow(() -> new ApiException(HttpStatus.UNAUTHORIZED, "Unknown device access token"));
    }

    private byte[] readBody(HttpServletRequest request) throws IOException {
        long max = maxPayloadBytes();
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes((int) max + 1);
            if (body.length > max) {
                throw tooLarge();
            }
            return body;
        }
    }

    private CompletableFuture<ResponseEntity<Object>> submit(Device device, String msgType, List<TsEntry> entries,
                                                             HttpServletRequest request) {
        CompletableFuture<Void> accepted = new CompletableFuture<>();
        String path = request.getRequestURI();
        try {
            DeviceDataMsg msg = new DeviceDataMsg(device.tenantId(), device.id(), msgType, entries, accepted);
            if (clusterPublisher != null) {
                clusterPublisher.publish(msg).whenComplete((ok, failure) -> {
                    if (failure == null) {
                        accepted.complete(null);
                    } else {
                        accepted.completeExceptionally(failure);
                    }
                });
            } else {
                actorSystemContext.tell(msg);
            }
        } catch (IllegalStateException notStartedYet) {
            // the web server starts a moment before the root actor exists
            stats.deviceRejected();
            return CompletableFuture.completedFuture(ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE,
                    "The message was not accepted, send it again later: the actors are starting", path));
        }
        long timeoutMs = properties.getDeviceApi().getReplyTimeout().toMillis();
        return accepted.orTimeout(timeoutMs, TimeUnit.MILLISECONDS).handle((ok, failure) -> {
            if (failure == null) {
                return ResponseEntity.ok().build();
            }
            stats.deviceRejected();
            if (isMailboxFull(failure)) {
                ResponseEntity<Object> busy = ProblemResponses.of(HttpStatus.TOO_MANY_REQUESTS,
                        "The device sends faster than it is processed, slow down: " + ProblemResponses.rootMessage(failure), path);
                return ResponseEntity.status(busy.getStatusCode()).headers(busy.getHeaders()).header(HttpHeaders.RETRY_AFTER, "1")
                        .body(busy.getBody());
            }
            return ProblemResponses.of(HttpStatus.SERVICE_UNAVAILABLE,
                    "The message was not accepted, send it again later: " + ProblemResponses.rootMessage(failure), path);
        });
    }

    private static boolean isMailboxFull(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof MessageNotAcceptedException notAccepted) {
                return notAccepted.isMailboxFull();
            }
        }
        return false;
    }

    private long maxPayloadBytes() {
        return properties.getDeviceApi().getMaxPayloadSize().toBytes();
    }

    private ApiException tooLarge() {
        return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "Request body is larger than the limit of "
                + properties.getDeviceApi().getMaxPayloadSize().toKilobytes() + " KB (sample.device-api.max-payload-size)");
    }
}
