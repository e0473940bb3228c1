package io.tbactors.sample.iot.transport.http;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.RuleChainFailureException;
import io.tbactors.sample.iot.actors.msg.DeviceDataMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.ingestion.DeviceIngestion;
import io.tbactors.sample.iot.ingestion.DevicePayloadParser;
import io.tbactors.sample.iot.ingestion.InFlightLimiter;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.spring.ActorSystemContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * The device API's promise that a request always gets an answer, whatever the actor system does with the message.
 */
class DeviceApiHandlerTest {

    private static final byte[] BODY = "{\"a\": 1}".getBytes(StandardCharsets.UTF_8);
    private static final String PATH = "/api/v1/token/telemetry";
    private static final Device DEVICE = new Device(UUID.randomUUID(), UUID.randomUUID(), "d", "t", "token", 0, 0L);

    private final DeviceService deviceService = mock(DeviceService.class);
    private final ActorSystemContext actorSystemContext = mock(ActorSystemContext.class);
    private final SampleProperties properties = new SampleProperties();
    private final IotStats stats = new IotStats();
    private final InFlightLimiter limiter = new InFlightLimiter(properties);
    private final DeviceApiHandler handler = new DeviceApiHandler(deviceService,
            new DevicePayloadParser(JsonMapper.builder().build(), properties),
            new DeviceIngestion(actorSystemContext, limiter, stats), properties, stats);

    DeviceApiHandlerTest() {
        when(deviceService.findByAccessToken("token")).thenReturn(Optional.of(DEVICE));
    }

    @Test
    void aMessageRefusedByAFullDeviceMailboxAnswers429WithRetryAfter() throws Exception {
        Mockito.doAnswer(call -> {
            call.getArgument(0, TbActorMsg.class).onTbActorStopped(TbActorStopReason.MAILBOX_FULL);
            return null;
        }).when(actorSystemContext).tell(any());

        ResponseEntity<Object> response = handler.postTelemetry("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).isEqualTo(429);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(((ProblemDetail) response.getBody()).getDetail()).contains("slow down").contains("mailbox is full");
        assertThat(stats.getDeviceRejected()).isEqualTo(1);
    }

    @Test
    void aMessageTheActorsDropAnswers503() throws Exception {
        Mockito.doAnswer(call -> {
            call.getArgument(0, TbActorMsg.class).onTbActorStopped(TbActorStopReason.STOPPED);
            return null;
        }).when(actorSystemContext).tell(any());

        ResponseEntity<Object> response = handler.postTelemetry("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(((ProblemDetail) response.getBody()).getDetail()).contains("its actor stopped (STOPPED)");
        assertThat(stats.getDeviceRejected()).isEqualTo(1);
    }

    @Test
    void aMessageNobodyAcceptsAnswers503AfterTheReplyTimeout() throws Exception {
        properties.getDeviceApi().setReplyTimeout(Duration.ofMillis(50));

        ResponseEntity<Object> response = handler.postAttributes("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(((ProblemDetail) response.getBody()).getDetail())
                .contains("not stored within 50 ms (sample.device-api.reply-timeout)");
    }

    @Test
    void theRoomOfAnsweredReadingsIsGivenBackOnlyWhenTheChainIsDoneWithThem() throws Exception {
        properties.getDeviceApi().setReplyTimeout(Duration.ofMillis(50));
        AtomicReference<DeviceDataMsg> told = new AtomicReference<>();
        Mockito.doAnswer(call -> {
            told.set(call.getArgument(0, DeviceDataMsg.class));
            return null;
        }).when(actorSystemContext).tell(any());

        ResponseEntity<Object> response = handler.postTelemetry("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst("Retry-After")).as("a 503 says when to try again").isEqualTo("1");
        assertThat(limiter.getInFlightValues()).as("answered by the timeout, still in the rule engine").isEqualTo(1);
        told.get().processed().complete(null);
        assertThat(limiter.getInFlightValues()).isZero();
    }

    @Test
    void aChainFailureAnswers500WithItsReason() throws Exception {
        Mockito.doAnswer(call -> {
            call.getArgument(0, DeviceDataMsg.class).processed()
                    .completeExceptionally(new RuleChainFailureException("rule node 'save' failed: disk full"));
            return null;
        }).when(actorSystemContext).tell(any());

        ResponseEntity<Object> response = handler.postTelemetry("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).isEqualTo(500);
        assertThat(((ProblemDetail) response.getBody()).getDetail()).contains("rule node 'save' failed: disk full");
        assertThat(limiter.getInFlightValues()).isZero();
    }

    @Test
    void aMessageBeforeTheRootActorExistsAnswers503() throws Exception {
        doThrow(new IllegalStateException("The root actor is not created yet")).when(actorSystemContext).tell(any());

        ResponseEntity<Object> response = handler.postTelemetry("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(((ProblemDetail) response.getBody()).getDetail()).endsWith("the actors are starting");
    }

    @Test
    void aReadingCountsItsValuesSoOneWiderThanTheDeviceBoundGets413AndTakesNothing() throws Exception {
        InFlightLimiter bounded = limiterHolding(3, 0);

        ResponseEntity<Object> response = post(parsingHandlerWith(bounded), "{\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4}");

        assertThat(response.getStatusCode().value()).isEqualTo(413);
        assertThat(((ProblemDetail) response.getBody()).getDetail()).contains("4 values", "1 reading(s)", "at most 3",
                "sample.device-api.max-in-flight-per-device");
        assertThat(bounded.getInFlightValues()).isZero();
        Mockito.verify(actorSystemContext, Mockito.never()).tell(any());
    }

    @Test
    void aWideReadingTakesRoomForEachOfItsValues() throws Exception {
        InFlightLimiter bounded = limiterHolding(5, 0);
        DeviceApiHandler handler5 = parsingHandlerWith(bounded);

        post(handler5, "{\"a\": 1, \"b\": 2, \"c\": 3}");
        ResponseEntity<Object> second = post(handler5, "{\"a\": 1, \"b\": 2, \"c\": 3}");

        assertThat(bounded.getInFlightValues()).as("the first reading's three values").isEqualTo(3);
        assertThat(second.getStatusCode().value()).as("three more do not fit in five").isEqualTo(429);
    }

    @Test
    void aDeviceWithNoRoomLeftIsRefusedBeforeItsBodyIsParsed() throws Exception {
        InFlightLimiter full = limiterHolding(2, 2);
        DevicePayloadParser parser = Mockito.spy(new DevicePayloadParser(JsonMapper.builder().build(), properties));
        DeviceApiHandler bounded = handlerWith(parser, full);

        ResponseEntity<Object> response = bounded.postTelemetry("token", "not even JSON".getBytes(StandardCharsets.UTF_8), PATH)
                .get(5, TimeUnit.SECONDS);

        assertThat(response.getStatusCode().value()).as("429, not the 400 a parse would give").isEqualTo(429);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(((ProblemDetail) response.getBody()).getDetail()).contains("the device has 2 value(s) in flight");
        Mockito.verify(parser, Mockito.never()).parseTelemetry(any());
        assertThat(full.getRefused()).isEqualTo(1);
        assertThat(stats.getDeviceRejected()).isEqualTo(1);
        Mockito.verify(actorSystemContext, Mockito.never()).tell(any());
    }

    @Test
    void aBodyThatFitsTheRoomLeftOnlyInPartIsParsedAndThenRefused() throws Exception {
        InFlightLimiter partly = limiterHolding(3, 2);

        ResponseEntity<Object> response = post(parsingHandlerWith(partly), "[{\"a\": 1}, {\"a\": 2}]");

        assertThat(response.getStatusCode().value()).isEqualTo(429);
        assertThat(partly.getInFlightValues()).as("nothing taken by the refused message").isEqualTo(2);
        Mockito.verify(actorSystemContext, Mockito.never()).tell(any());
    }

    /**
     * A limiter whose device and tenant bounds are both {@code bound}, with {@code held} of the device's values in
     * flight, that refuses at once (no hold: see the tests of holding below).
     */
    private InFlightLimiter limiterHolding(int bound, int held) {
        properties.getDeviceApi().setHoldWhenFull(Duration.ZERO);
        return limiterHolding(bound, held, properties);
    }

    private static InFlightLimiter limiterHolding(int bound, int held, SampleProperties properties) {
        properties.getDeviceApi().setMaxInFlightPerDevice(bound);
        properties.getDeviceApi().setMaxInFlightPerTenant(bound);
        InFlightLimiter limiter = new InFlightLimiter(properties);
        assertThat(limiter.tryAcquire(DEVICE.tenantId(), DEVICE.id(), held)).isNull();
        return limiter;
    }

    @Test
    void aRequestThatFindsNoRoomIsHeldUnparsedAndAdmittedOnceRoomComesBack() throws Exception {
        properties.getDeviceApi().setHoldWhenFull(Duration.ofHours(1));
        InFlightLimiter full = limiterHolding(2, 2, properties);
        DevicePayloadParser parser = Mockito.spy(new DevicePayloadParser(JsonMapper.builder().build(), properties));
        DeviceApiHandler holding = handlerWith(parser, full);
        AtomicReference<DeviceDataMsg> told = new AtomicReference<>();
        Mockito.doAnswer(call -> {
            told.set(call.getArgument(0, DeviceDataMsg.class));
            return null;
        }).when(actorSystemContext).tell(any());

        CompletableFuture<ResponseEntity<Object>> answer = holding.postTelemetry("token", BODY, PATH);

        assertThat(answer).as("held, not refused").isNotDone();
        assertThat(full.getHeldRequests()).isEqualTo(1);
        Mockito.verify(parser, Mockito.never()).parseTelemetry(any());
        full.release(DEVICE.tenantId(), DEVICE.id(), 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> told.get() != null);
        assertThat(full.getInFlightValues()).as("the held request's value").isEqualTo(1);
        told.get().processed().complete(null);
        assertThat(answer.get(5, TimeUnit.SECONDS).getStatusCode().value()).isEqualTo(200);
        assertThat(full.getRefused()).as("a held request that got its room was not refused").isZero();
        assertThat(stats.getDeviceRejected()).isZero();
    }

    @Test
    void aBodyThatFitsOnlyInPartIsHeldUntilAllOfItFitsParsedAgainAfterAndAHoldThatRunsOutAnswers429() throws Exception {
        properties.getDeviceApi().setHoldWhenFull(Duration.ofMillis(100));
        InFlightLimiter partly = limiterHolding(3, 2, properties);
        DevicePayloadParser parser = Mockito.spy(new DevicePayloadParser(JsonMapper.builder().build(), properties));

        CompletableFuture<ResponseEntity<Object>> answer = handlerWith(parser, partly)
                .postTelemetry("token", "[{\"a\": 1}, {\"a\": 2}]".getBytes(StandardCharsets.UTF_8), PATH);

        ResponseEntity<Object> response = answer.get(5, TimeUnit.SECONDS);
        assertThat(response.getStatusCode().value()).isEqualTo(429);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        Mockito.verify(parser, Mockito.times(2).description("parsed, held unparsed, parsed again")).parseTelemetry(any());
        assertThat(partly.getInFlightValues()).as("nothing taken by the refused message").isEqualTo(2);
        assertThat(partly.getHeldRequests()).isZero();
        assertThat(partly.getRefused()).isEqualTo(1);
        Mockito.verify(actorSystemContext, Mockito.never()).tell(any());
    }

    @Test
    void aHeldRequestWhoseTryFailsUnexpectedlyAnswers500AndStillWakesTheNext() throws Exception {
        properties.getDeviceApi().setHoldWhenFull(Duration.ofHours(1));
        InFlightLimiter full = limiterHolding(2, 2, properties);
        DevicePayloadParser parser = Mockito.spy(new DevicePayloadParser(JsonMapper.builder().build(), properties));
        Mockito.doThrow(new IllegalStateException("a parser bug")).doCallRealMethod().when(parser).parseTelemetry(any());
        DeviceApiHandler holding = handlerWith(parser, full);
        CompletableFuture<ResponseEntity<Object>> first = holding.postTelemetry("token", BODY, PATH);
        CompletableFuture<ResponseEntity<Object>> second = holding.postTelemetry("token", BODY, PATH);

        full.release(DEVICE.tenantId(), DEVICE.id(), 2);

        ResponseEntity<Object> failed = first.get(5, TimeUnit.SECONDS);
        assertThat(failed.getStatusCode().value()).isEqualTo(500);
        assertThat(((ProblemDetail) failed.getBody()).getDetail()).contains("see the server log");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> Mockito.verify(actorSystemContext).tell(any()));
        assertThat(second).as("woken by the first one's failed try, now in the rule engine").isNotDone();
        assertThat(full.getHeldRequests()).isZero();
    }

    @Test
    void pastItsTenantsMostHeldARequestIsRefusedAtOnce() throws Exception {
        properties.getDeviceApi().setHoldWhenFull(Duration.ofHours(1));
        properties.getDeviceApi().setMaxHeldRequestsPerTenant(1);
        InFlightLimiter full = limiterHolding(2, 2, properties);
        DeviceApiHandler holding = parsingHandlerWith(full);

        CompletableFuture<ResponseEntity<Object>> first = holding.postTelemetry("token", BODY, PATH);
        ResponseEntity<Object> second = holding.postTelemetry("token", BODY, PATH).get(5, TimeUnit.SECONDS);

        assertThat(first).isNotDone();
        assertThat(second.getStatusCode().value()).isEqualTo(429);
        assertThat(((ProblemDetail) second.getBody()).getDetail()).contains("the device has 2 value(s) in flight");
        full.releaseHeld();
        assertThat(first.get(5, TimeUnit.SECONDS).getStatusCode().value()).as("the stop ends the hold: refused as at first")
                .isEqualTo(429);
    }

    private DeviceApiHandler parsingHandlerWith(InFlightLimiter limiter) {
        return handlerWith(new DevicePayloadParser(JsonMapper.builder().build(), properties), limiter);
    }

    private static ResponseEntity<Object> post(DeviceApiHandler handler, String body) throws Exception {
        CompletableFuture<ResponseEntity<Object>> answer = handler.postTelemetry("token", body.getBytes(StandardCharsets.UTF_8), PATH);
        // a message still in the rule engine has no answer yet: only what was answered at once is returned
        return answer.isDone() ? answer.get(5, TimeUnit.SECONDS) : null;
    }

    private DeviceApiHandler handlerWith(DevicePayloadParser parser, InFlightLimiter limiter) {
        return new DeviceApiHandler(deviceService, parser, new DeviceIngestion(actorSystemContext, limiter, stats),
                properties, stats);
    }

    @Test
    void anUnknownTokenAndABadBodyAnswerProblemDetails() throws Exception {
        ResponseEntity<Object> unknown = handler.postTelemetry("nobody", BODY, PATH).get(5, TimeUnit.SECONDS);
        ResponseEntity<Object> malformed = handler.postTelemetry("token", "{".getBytes(StandardCharsets.UTF_8), PATH)
                .get(5, TimeUnit.SECONDS);

        assertThat(unknown.getStatusCode().value()).isEqualTo(401);
        assertThat(((ProblemDetail) unknown.getBody()).getDetail()).isEqualTo("Unknown device access token");
        assertThat(malformed.getStatusCode().value()).isEqualTo(400);
        assertThat(((ProblemDetail) malformed.getBody()).getInstance()).hasToString(PATH);
        Mockito.verify(actorSystemContext, Mockito.never()).tell(any());
    }
}
