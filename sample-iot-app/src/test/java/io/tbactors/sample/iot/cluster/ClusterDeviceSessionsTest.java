package io.tbactors.sample.iot.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbClusterRouter;
import io.tbactors.kafka.TbNodeChannel;
import io.tbactors.sample.iot.actors.IotActorIds;
import io.tbactors.sample.iot.actors.msg.ClusterClientRpcRequest;
import io.tbactors.sample.iot.actors.msg.ClusterRpcOutcome;
import io.tbactors.sample.iot.actors.msg.ClusterSessionSubscribe;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.RpcDeliveryMsg;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.RpcStatus;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.actors.msg.ToRemoteSessionMsg;
import io.tbactors.sample.iot.actors.msg.ToServerRpcRequestMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.stats.IotStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The {@code cluster} profile's commands to devices, on the caller's node and on the node holding a session, with the
 * router and node channel stubbed: nothing ends silently when the other node does not answer or the session is gone.
 */
class ClusterDeviceSessionsTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID DEVICE = UUID.randomUUID();

    private final TbClusterRouter router = mock(TbClusterRouter.class);
    private final TbNodeChannel channel = mock(TbNodeChannel.class);
    private final IotStats stats = new IotStats();
    private final SampleProperties properties = new SampleProperties();
    private ClusterDeviceSessions sessions;

    private ClusterDeviceSessions start(Duration refresh) {
        when(channel.getNodeId()).thenReturn("node-a");
        when(channel.send(any(), any())).thenReturn(CompletableFuture.completedFuture(null));
        properties.getRpc().setSessionRefresh(refresh);
        sessions = new ClusterDeviceSessions(router, channel, new StaticListableBeanFactory().getBeanProvider(KafkaClusterMember.class),
                stats, JsonMapper.builder().build(), properties);
        return sessions;
    }

    @AfterEach
    void stop() {
        if (sessions != null) {
            sessions.destroy();
        }
    }

    @Test
    void aRequestWhoseOutcomeNeverComesBackEndsAsTimedOutAfterItsTimeoutAndTheMargin() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        ToDeviceRpcMsg request = request(1);

        sessions.request(request);

        assertThat(request.outcome()).isNotDone();
        RpcOutcome outcome = request.outcome().orTimeout(ClusterDeviceSessions.OUTCOME_MARGIN_MS + 10_000,
                java.util.concurrent.TimeUnit.MILLISECONDS).join();
        assertThat(outcome.status()).isEqualTo(RpcStatus.TIMEOUT);
        assertThat(outcome.reason()).contains("no outcome came back from the node that owns device " + DEVICE);
        assertThat(stats.getRpcClusterFailures("no-outcome")).isEqualTo(1);
    }

    @Test
    void theOutcomeTheOwnerSendsBackEndsTheWaitingCall() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        ToDeviceRpcMsg request = request(10_000);
        sessions.request(request);

        sessions.onBroadcast(new ClusterRpcOutcome(request.rpcId(), RpcOutcome.successful("{\"ok\":true}")));

        assertThat(request.outcome()).isCompletedWithValue(RpcOutcome.successful("{\"ok\":true}"));
        assertThat(stats.getRpcClusterFailures("no-outcome")).isZero();
    }

    @Test
    void aRequestTheClusterDidNotTakeFailsAtOnceSayingSoAndIsCounted() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any()))
                .thenReturn(CompletableFuture.failedFuture(new IllegalStateException("Kafka is unreachable")));
        ToDeviceRpcMsg request = request(10_000);

        sessions.request(request);

        assertThat(request.outcome()).isCompleted();
        RpcOutcome outcome = request.outcome().join();
        assertThat(outcome.status()).isEqualTo(RpcStatus.FAILED);
        assertThat(outcome.reason()).contains("did not reach the node that owns device").contains("Kafka is unreachable");
        assertThat(stats.getRpcClusterFailures("not-sent")).isEqualTo(1);
    }

    @Test
    void aPushThatReachesThisNodeAfterItsSessionClosedIsCountedAndTheOwnerIsTold() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        StubSession closed = new StubSession(false, false);
        sessions.subscribe(TENANT, DEVICE, closed, SessionSubscribeMsg.Topic.RPC, true);

        sessions.onBroadcast(new ToRemoteSessionMsg(TENANT, closed.sessionId(), DEVICE, 7, "reboot", "{}"));

        assertThat(stats.getRpcClusterFailures("session-gone")).isEqualTo(1);
        verify(router).send(eq(IotActorIds.DEVICE), eq(DEVICE), argThat(msg -> msg instanceof ClusterSessionSubscribe subscription
                && subscription.sessionId().equals(closed.sessionId()) && !subscription.subscribe()
                && subscription.topic() == SessionSubscribeMsg.Topic.RPC));
    }

    @Test
    void aSessionOfAnotherNodeNotRefreshedForThreePeriodsTakesNothingSoRequestsWaitForAnotherSession() {
        start(Duration.ofMillis(20));
        DeviceSession remote = sessions.session("node-b", TENANT, UUID.randomUUID(), DEVICE);
        JsonNode params = JsonNodeFactory.instance.objectNode();

        assertThat(remote.sendRpcRequest(1, "reboot", params)).as("fresh: pushed to node-b").isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> !remote.sendRpcRequest(2, "reboot", params));
        // a session of this node that has closed takes nothing either
        assertThat(sessions.session("node-a", TENANT, UUID.randomUUID(), DEVICE).sendRpcRequest(3, "reboot", params)).isFalse();
    }

    @Test
    void aSessionOfAnotherNodeConfirmsDeliverySoTheOwnerWaitsForThatNodesWord() {
        start(Duration.ofSeconds(5));

        assertThat(sessions.session("node-b", TENANT, UUID.randomUUID(), DEVICE).confirmsRpcDelivery())
                .as("a one-way request pushed to node-b is not DELIVERED until node-b says the device has it").isTrue();
    }

    @Test
    void aRequestWrittenToASessionThatDoesNotConfirmIsReportedDeliveredToTheOwner() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        StubSession qos0 = new StubSession(true, false);
        sessions.subscribe(TENANT, DEVICE, qos0, SessionSubscribeMsg.Topic.RPC, true);

        sessions.onBroadcast(new ToRemoteSessionMsg(TENANT, qos0.sessionId(), DEVICE, 7, "reboot", "{}"));

        verify(router).send(eq(IotActorIds.DEVICE), eq(DEVICE), eq(new RpcDeliveryMsg(TENANT, DEVICE, qos0.sessionId(), 7, true)));
    }

    @Test
    void aRequestWrittenToASessionThatConfirmsLeavesTheNoticeToThatSession() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        StubSession qos1 = new StubSession(true, true);
        sessions.subscribe(TENANT, DEVICE, qos1, SessionSubscribeMsg.Topic.RPC, true);

        sessions.onBroadcast(new ToRemoteSessionMsg(TENANT, qos1.sessionId(), DEVICE, 7, "reboot", "{}"));

        verify(router, org.mockito.Mockito.never()).send(eq(IotActorIds.DEVICE), eq(DEVICE), argThat(msg -> msg instanceof RpcDeliveryMsg));
    }

    @Test
    void aRequestThatReachedAClosedSessionIsHandedBackToTheOwnerAfterTheUnsubscriptions() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        StubSession closed = new StubSession(false, false);
        sessions.subscribe(TENANT, DEVICE, closed, SessionSubscribeMsg.Topic.RPC, true);

        sessions.onBroadcast(new ToRemoteSessionMsg(TENANT, closed.sessionId(), DEVICE, 7, "reboot", "{}"));

        // in this order, on the device's partition: the owner must not send it back to the closed session
        InOrder order = inOrder(router);
        order.verify(router).send(eq(IotActorIds.DEVICE), eq(DEVICE), argThat(msg -> msg instanceof ClusterSessionSubscribe
                subscription && !subscription.subscribe() && subscription.topic() == SessionSubscribeMsg.Topic.RPC));
        order.verify(router).send(eq(IotActorIds.DEVICE), eq(DEVICE), eq(new RpcDeliveryMsg(TENANT, DEVICE, closed.sessionId(), 7, false)));
    }

    @Test
    void aDevicesOwnRpcRequestGoesToTheOwnerAndItsAnswerComesBackToTheWaitingSession() {
        start(Duration.ofSeconds(5));
        when(router.send(eq(IotActorIds.DEVICE), eq(DEVICE), any())).thenReturn(CompletableFuture.completedFuture(null));
        ToServerRpcRequestMsg request = new ToServerRpcRequestMsg(TENANT, DEVICE, UUID.randomUUID(), 3, "getCurrentTime",
                JsonNodeFactory.instance.objectNode(), new CompletableFuture<>());

        sessions.clientRpc(request);

        org.mockito.ArgumentCaptor<io.tbactors.api.TbActorMsg> sent = org.mockito.ArgumentCaptor.forClass(io.tbactors.api.TbActorMsg.class);
        verify(router).send(eq(IotActorIds.DEVICE), eq(DEVICE), sent.capture());
        ClusterClientRpcRequest onTheWire = (ClusterClientRpcRequest) sent.getValue();
        assertThat(onTheWire.originNode()).isEqualTo("node-a");
        assertThat(onTheWire.method()).isEqualTo("getCurrentTime");
        assertThat(request.reply()).isNotDone();

        sessions.onBroadcast(new ClusterRpcOutcome(onTheWire.callId(), RpcOutcome.successful("{\"time\":1}")));

        assertThat(request.reply()).isCompletedWithValue(RpcOutcome.successful("{\"time\":1}"));
    }

    @Test
    void onTheOwnerTheRequestBecomesTheDeviceActorsMessageWhoseReplyGoesBackToTheOriginNode() {
        start(Duration.ofSeconds(5));
        UUID callId = UUID.randomUUID();
        ClusterClientRpcRequest onTheWire = new ClusterClientRpcRequest(TENANT, DEVICE, UUID.randomUUID(), 3, "getCurrentTime",
                "{}", callId, "node-b");

        ToServerRpcRequestMsg local = onTheWire.toLocal(JsonNodeFactory.instance.objectNode(), sessions);
        local.reply().complete(RpcOutcome.successful("{\"time\":1}"));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> verify(channel).send(eq("node-b"),
                eq(new ClusterRpcOutcome(callId, RpcOutcome.successful("{\"time\":1}")))));
    }

    private static ToDeviceRpcMsg request(long timeoutMs) {
        return new ToDeviceRpcMsg(TENANT, DEVICE, UUID.randomUUID(), false, "reboot", JsonNodeFactory.instance.objectNode(),
                timeoutMs, false, 0, new CompletableFuture<>());
    }

    /** A session of this node: takes what is pushed to it or says it has closed; confirms delivery or not. */
    private static final class StubSession implements DeviceSession {
        private final UUID id = UUID.randomUUID();
        private final boolean open;
        private final boolean confirms;

        private StubSession(boolean open, boolean confirms) {
            this.open = open;
            this.confirms = confirms;
        }

        @Override
        public UUID sessionId() {
            return id;
        }

        @Override
        public boolean sendRpcRequest(int requestId, String method, JsonNode params) {
            return open;
        }

        @Override
        public boolean confirmsRpcDelivery() {
            return confirms;
        }

        @Override
        public boolean sendAttributesUpdate(JsonNode changed) {
            return open;
        }
    }
}
