package io.tbactors.sample.iot.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.ingestion.DeviceRequests;
import io.tbactors.sample.iot.ingestion.DeviceSessionLink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import org.mockito.ArgumentCaptor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.node.JsonNodeFactory;

/** The HTTP long polls' bound and their one-shot sessions, without a server. */
class DeviceLongPollsTest {

    private static final Device DEVICE = new Device(UUID.randomUUID(), UUID.randomUUID(), "d", "default", "token", 0L, 0L);

    private final DeviceService deviceService = mock(DeviceService.class);
    private final DeviceSessionLink link = mock(DeviceSessionLink.class);
    private final SampleProperties properties = new SampleProperties();
    private DeviceLongPolls polls;

    DeviceLongPolls polls(int max) {
        when(deviceService.findByAccessToken("token")).thenReturn(Optional.of(DEVICE));
        when(link.subscribe(any(), any(), any(), anyBoolean())).thenReturn(true);
        properties.getDeviceApi().setMaxLongPolls(max);
        polls = new DeviceLongPolls(deviceService, link, mock(DeviceRequests.class), properties,
                JsonMapper.builder().build());
        return polls;
    }

    @AfterEach
    void stop() {
        polls.stop();
    }

    @Test
    void aPollPastTheBoundIsRefusedWith429AndRetryAfterAndTheSlotComesBackWhenAPollEnds() {
        DeviceLongPolls polls = polls(1);
        CompletableFuture<ResponseEntity<Object>> first = polls.pollRpc("token", 60_000, "/p").answer();

        ResponseEntity<Object> second = polls.pollRpc("token", 60_000, "/p").answer().join();
        assertThat(second.getStatusCode().value()).isEqualTo(429);
        assertThat(second.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
        assertThat(second.getBody().toString()).contains("sample.device-api.max-long-polls");

        // the first poll takes a request: its slot is free again and it unsubscribes
        DeviceSession session = subscribedSession();
        assertThat(session.sendRpcRequest(1, "m", JsonNodeFactory.instance.objectNode())).isTrue();
        assertThat(first.join().getStatusCode().value()).isEqualTo(200);
        assertThat(polls.getWaiting()).isZero();
        verify(link).subscribe(eq(DEVICE), eq(session), eq(SessionSubscribeMsg.Topic.RPC), eq(false));
        assertThat(polls.pollRpc("token", 60_000, "/p").answer()).isNotDone();
    }

    @Test
    void aPollTakesOneRequestOnlySoTheActorKeepsTheNextForAnotherSession() {
        polls(10).pollRpc("token", 60_000, "/p");
        DeviceSession session = subscribedSession();

        assertThat(session.sendRpcRequest(1, "m", JsonNodeFactory.instance.objectNode())).isTrue();
        assertThat(session.sendRpcRequest(2, "m", JsonNodeFactory.instance.objectNode())).isFalse();
    }

    @Test
    void aPollThatTimedOutTakesNoRequest() {
        CompletableFuture<ResponseEntity<Object>> poll = polls(10).pollRpc("token", 1, "/p").answer();
        DeviceSession session = subscribedSession();

        assertThat(poll.join().getStatusCode().value()).isEqualTo(408);
        assertThat(session.sendRpcRequest(1, "m", JsonNodeFactory.instance.objectNode())).isFalse();
        assertThat(polls.getWaiting()).isZero();
    }

    @Test
    void aPollWhoseClientLeftEndsAtOnceGivingItsSlotAndSessionBackAndTakesNothing() {
        DeviceLongPolls.LongPoll poll = polls(10).pollRpc("token", 60_000, "/p");
        DeviceSession session = subscribedSession();
        assertThat(polls.getWaiting()).isEqualTo(1);

        poll.clientGone();

        assertThat(polls.getWaiting()).isZero();
        verify(link).subscribe(eq(DEVICE), eq(session), eq(SessionSubscribeMsg.Topic.RPC), eq(false));
        assertThat(session.sendRpcRequest(1, "m", JsonNodeFactory.instance.objectNode())).isFalse();
        poll.written(false);
        verify(link, never()).rpcDelivery(any(), any(), anyInt(), anyBoolean());
    }

    @Test
    void aRequestAPollTookIsDeliveredWhenItsAnswerIsWrittenAndWaitsForTheNextSessionWhenItIsNot() {
        DeviceLongPolls.LongPoll written = polls(10).pollRpc("token", 60_000, "/p");
        DeviceSession first = subscribedSession();
        assertThat(first.sendRpcRequest(1, "m", JsonNodeFactory.instance.objectNode())).isTrue();
        assertThat(first.confirmsRpcDelivery()).isTrue();
        written.written(true);
        verify(link).rpcDelivery(DEVICE, first.sessionId(), 1, true);

        DeviceLongPolls.LongPoll lost = polls.pollRpc("token", 60_000, "/p");
        ArgumentCaptor<DeviceSession> sessions = ArgumentCaptor.forClass(DeviceSession.class);
        verify(link, times(2)).subscribe(eq(DEVICE), sessions.capture(),
                eq(SessionSubscribeMsg.Topic.RPC), eq(true));
        DeviceSession second = sessions.getAllValues().get(1);
        assertThat(second.sendRpcRequest(2, "m", JsonNodeFactory.instance.objectNode())).isTrue();
        lost.clientGone();
        lost.written(false);
        verify(link).rpcDelivery(DEVICE, second.sessionId(), 2, false);
    }

    private DeviceSession subscribedSession() {
        ArgumentCaptor<DeviceSession> session = ArgumentCaptor.forClass(DeviceSession.class);
        verify(link).subscribe(eq(DEVICE), session.capture(), eq(SessionSubscribeMsg.Topic.RPC), eq(true));
        return session.getValue();
    }
}
