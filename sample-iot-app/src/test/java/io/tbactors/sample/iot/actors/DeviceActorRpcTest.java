package io.tbactors.sample.iot.actors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorRef;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.sample.iot.actors.msg.DeviceDeletedMsg;
import io.tbactors.sample.iot.actors.msg.DeviceSession;
import io.tbactors.sample.iot.actors.msg.FromDeviceRpcResponseMsg;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.RpcDeliveryMsg;
import io.tbactors.sample.iot.actors.msg.RpcStatus;
import io.tbactors.sample.iot.actors.msg.SessionSubscribeMsg;
import io.tbactors.sample.iot.actors.msg.SharedAttributesUpdatedMsg;
import io.tbactors.sample.iot.actors.msg.ToDeviceRpcMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.storage.RpcDao;
import io.tbactors.testkit.TbTestActorSystem;
import io.tbactors.sample.iot.actors.msg.RemoteSessions;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The device actor's sessions and server-side RPC on a manual actor system: the test decides which message is in the
 * mailbox first, so a timeout racing the device's answer is played in both orders, every time.
 */
class DeviceActorRpcTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID DEVICE = UUID.randomUUID();
    private static final long TIMEOUT_MS = 1_000;

    private final IotStats stats = new IotStats();
    private final SampleProperties properties = new SampleProperties();
    private final RecordingSession session = new RecordingSession();
    private final RpcDao rpcDao = mock(RpcDao.class);
    private final List<RpcDao.StoredRpc> stored = new ArrayList<>();
    private TbTestActorSystem system;
    private TbActorRef actor;

    @BeforeEach
    void startDeviceActor() {
        DeviceService deviceService = mock(DeviceService.class);
        when(deviceService.findById(DEVICE)).thenReturn(Optional.of(new Device(DEVICE, TENANT, "d", "default", "token",
                0L, 0L)));
        properties.getRpc().setMaxPendingPerDevice(2);
        when(rpcDao.findActive(DEVICE)).thenReturn(stored);
        IotActorServices services = new IotActorServices(deviceService, mock(RuleChainService.class),
                mock(RuleEngineContext.class), stats, properties, rpcDao, JsonMapper.builder().build(),
                new StaticListableBeanFactory().getBeanProvider(RemoteSessions.class));
        if (system == null) {
            system = TbTestActorSystem.manual();
        }
        actor = system.createRootActor(TbActorCreator.of(IotActorIds.device(DEVICE),
                () -> new DeviceActor(services, TENANT, DEVICE)));
        system.runUntilIdle();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    @Test
    void aTwoWayRequestGoesToTheSubscribedSessionAndEndsWithTheDevicesAnswer() {
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(false);
        system.runUntilIdle();
        assertThat(session.requests).containsExactly("1:setMode");
        assertThat(outcome).isNotDone();

        actor.tell(new FromDeviceRpcResponseMsg(TENANT, DEVICE, 1, "{\"mode\":\"eco\"}"));
        system.runUntilIdle();

        assertThat(outcome.join()).isEqualTo(RpcOutcome.successful("{\"mode\":\"eco\"}"));
        assertThat(stats.getRpcOutcomes("SUCCESSFUL")).isEqualTo(1);
    }

    @Test
    void aRequestWaitsForASessionAndIsSentWhenOneSubscribes() {
        CompletableFuture<RpcOutcome> twoWay = request(false);
        CompletableFuture<RpcOutcome> oneWay = request(true);
        system.runUntilIdle();
        assertThat(twoWay).isNotDone();
        assertThat(oneWay).isNotDone();

        subscribe();
        system.runUntilIdle();

        assertThat(session.requests).containsExactly("1:setMode", "2:setMode");
        assertThat(oneWay.join().status()).isEqualTo(RpcStatus.DELIVERED);
        assertThat(twoWay).isNotDone();
    }

    @Test
    void aRequestNoSessionTookTimesOutSayingSo() {
        CompletableFuture<RpcOutcome> outcome = request(true);
        system.advance(Duration.ofMillis(TIMEOUT_MS));

        assertThat(outcome.join().status()).isEqualTo(RpcStatus.TIMEOUT);
        assertThat(outcome.join().reason()).contains("no session of device " + DEVICE + " subscribed to RPC within 1000 ms");
    }

    @Test
    void theTimeoutQueuedBeforeTheAnswerWinsAndTheLateAnswerIsCountedNotLost() {
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(false);
        system.runUntilIdle();

        // the timer fires (its message is queued, not processed), then the answer arrives behind it
        system.scheduler().advance(Duration.ofMillis(TIMEOUT_MS));
        actor.tell(new FromDeviceRpcResponseMsg(TENANT, DEVICE, 1, "{\"late\":true}"));
        system.runUntilIdle();

        assertThat(outcome.join().status()).isEqualTo(RpcStatus.TIMEOUT);
        assertThat(outcome.join().reason()).contains("did not answer within 1000 ms");
        assertThat(stats.getRpcLateResponses()).isEqualTo(1);
        assertThat(stats.getRpcOutcomes("TIMEOUT")).isEqualTo(1);
        assertThat(stats.getRpcOutcomes("SUCCESSFUL")).isZero();
    }

    @Test
    void theAnswerQueuedBeforeTheTimeoutWinsAndTheTimeoutThatAlreadyFiredDoesNothing() {
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(false);
        system.runUntilIdle();

        // the answer is queued first, then the timer fires: too late to cancel it, its message is queued behind
        actor.tell(new FromDeviceRpcResponseMsg(TENANT, DEVICE, 1, "{\"ok\":true}"));
        system.scheduler().advance(Duration.ofMillis(TIMEOUT_MS));
        system.runUntilIdle();

        assertThat(outcome.join()).isEqualTo(RpcOutcome.successful("{\"ok\":true}"));
        assertThat(stats.getRpcOutcomes("TIMEOUT")).isZero();
        assertThat(stats.getRpcLateResponses()).isZero();
    }

    @Test
    void aRequestPastTheDevicesBoundIsRefusedAtOnceSayingWhichSettingBoundsIt() {
        request(false);
        request(false);
        CompletableFuture<RpcOutcome> third = request(false);
        system.runUntilIdle();

        assertThat(third.join().refused()).isTrue();
        assertThat(third.join().reason()).contains("sample.rpc.max-pending-per-device");
        assertThat(stats.getRpcOutcomes("REFUSED")).isEqualTo(1);
    }

    @Test
    void deletingTheDeviceFailsItsWaitingRequestsWithThatReason() {
        CompletableFuture<RpcOutcome> waiting = request(false);
        system.runUntilIdle();

        actor.tellWithHighPriority(new DeviceDeletedMsg(TENANT, DEVICE));
        CompletableFuture<RpcOutcome> behind = request(false);
        system.runUntilIdle();

        assertThat(waiting.join().status()).isEqualTo(RpcStatus.FAILED);
        assertThat(waiting.join().reason()).isEqualTo("device " + DEVICE + " was deleted");
        assertThat(behind.join().status()).isEqualTo(RpcStatus.FAILED);
    }

    @Test
    void stoppingTheNodeFailsTheWaitingRequestsSayingTheNodeIsStopping() {
        CompletableFuture<RpcOutcome> waiting = request(false);
        system.runUntilIdle();

        system.system().stop(actor);
        system.runUntilIdle();

        assertThat(waiting.join().status()).isEqualTo(RpcStatus.FAILED);
        assertThat(waiting.join().reason()).contains("the node is stopping");
    }

    @Test
    void sharedAttributeUpdatesGoToTheSessionsSubscribedToThem() {
        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, session, SessionSubscribeMsg.Topic.ATTRIBUTES, true));
        JsonNode changed = JsonNodeFactory.instance.objectNode().put("targetTemperature", 22.5);
        actor.tell(new SharedAttributesUpdatedMsg(TENANT, DEVICE, changed));
        system.runUntilIdle();

        assertThat(session.attributeUpdates).containsExactly("{\"targetTemperature\":22.5}");
    }

    @Test
    void aPersistentRequestIsStoredSentThenSuccessfulWhenTheDeviceAnswers() {
        UUID id = persistentRequest(60_000);
        system.runUntilIdle();
        subscribe();
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "SENT", null, null);

        actor.tell(new FromDeviceRpcResponseMsg(TENANT, DEVICE, 1, "{\"ok\":true}"));
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "SUCCESSFUL", "{\"ok\":true}", null);
    }

    @Test
    void aPersistentRequestNoSessionTookBeforeItsExpirationIsStoredAsExpired() {
        UUID id = persistentRequest(5_000);
        system.advance(Duration.ofSeconds(60));

        verify(rpcDao).updateLater(eq(id), eq("EXPIRED"), isNull(), contains("before its expiration time"));
    }

    @Test
    void aStoppingNodeLeavesPersistentRequestsStoredAndANewActorRestoresAndSendsThem() {
        UUID id = persistentRequest(600_000);
        system.runUntilIdle();
        system.system().stop(actor);
        system.runUntilIdle();
        verify(rpcDao, never()).updateLater(eq(id), any(), any(), any());

        // the same device's actor again (as after a restart): it reads what is stored and sends it to a session
        stored.add(new RpcDao.StoredRpc(id, TENANT, DEVICE, 0L, System.currentTimeMillis() + 600_000, false, "setMode",
                "{\"mode\":\"eco\"}", TIMEOUT_MS, "QUEUED", null, null));
        startDeviceActor();
        subscribe();
        system.runUntilIdle();

        assertThat(session.requests).containsExactly("1:setMode");
        verify(rpcDao).updateLater(id, "SENT", null, null);
    }

    @Test
    void aPersistentRequestRestoredFromTheTableAndItsMessageArrivingAfterIsSentOnce() {
        // the actor starts (and restores the stored row) before the request's own message reaches it, as when the
        // message was what created the actor, or a cluster record was delivered again
        system.system().stop(actor);
        system.runUntilIdle();
        UUID id = UUID.randomUUID();
        stored.add(new RpcDao.StoredRpc(id, TENANT, DEVICE, 0L, System.currentTimeMillis() + 600_000, false, "setMode",
                "{}", TIMEOUT_MS, "QUEUED", null, null));
        startDeviceActor();
        actor.tell(new ToDeviceRpcMsg(TENANT, DEVICE, id, false, "setMode", JsonNodeFactory.instance.objectNode(),
                TIMEOUT_MS, true, System.currentTimeMillis() + 600_000, new CompletableFuture<>()));
        subscribe();
        system.runUntilIdle();

        assertThat(session.requests).containsExactly("1:setMode");
    }

    @Test
    void aSessionThatSaysItIsGoneIsForgottenAndTheNextRequestWaitsForAnotherOne() {
        RecordingSession gone = new RecordingSession();
        gone.open = false;
        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, gone, SessionSubscribeMsg.Topic.RPC, true));
        CompletableFuture<RpcOutcome> first = request(true);
        CompletableFuture<RpcOutcome> second = request(true);
        system.runUntilIdle();
        assertThat(gone.attempts).as("asked once, then forgotten").isEqualTo(1);
        assertThat(first).isNotDone();

        subscribe();
        system.runUntilIdle();
        assertThat(first).isCompletedWithValueMatching(outcome -> outcome.status() == RpcStatus.DELIVERED);
        assertThat(second).isCompletedWithValueMatching(outcome -> outcome.status() == RpcStatus.DELIVERED);
        assertThat(gone.attempts).isEqualTo(1);
    }

    @Test
    void aOneWayRequestToASessionThatConfirmsIsDeliveredOnlyWhenTheDeviceAcknowledgesIt() {
        session.confirms = true;
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(true);
        system.runUntilIdle();
        assertThat(session.requests).containsExactly("1:setMode");
        assertThat(outcome).as("written, not yet acknowledged").isNotDone();

        actor.tell(new RpcDeliveryMsg(TENANT, DEVICE, session.id, 1, true));
        system.runUntilIdle();

        assertThat(outcome.join().status()).isEqualTo(RpcStatus.DELIVERED);
    }

    @Test
    void aOneWayRequestNeverAcknowledgedTimesOutSayingSo() {
        session.confirms = true;
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(true);
        system.advance(Duration.ofMillis(TIMEOUT_MS));

        assertThat(outcome.join().status()).isEqualTo(RpcStatus.TIMEOUT);
        assertThat(outcome.join().reason()).contains("did not acknowledge");
    }

    @Test
    void aPersistentTwoWayRequestIsSentThenDeliveredThenSuccessful() {
        session.confirms = true;
        UUID id = persistentRequest(60_000);
        subscribe();
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "SENT", null, null);
        verify(rpcDao, never()).updateLater(eq(id), eq("DELIVERED"), any(), any());

        actor.tell(new RpcDeliveryMsg(TENANT, DEVICE, session.id, 1, true));
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "DELIVERED", null, null);

        actor.tell(new FromDeviceRpcResponseMsg(TENANT, DEVICE, 1, "{\"ok\":true}"));
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "SUCCESSFUL", "{\"ok\":true}", null);
    }

    @Test
    void aPersistentOneWayRequestIsSentThenDeliveredByTheAcknowledgement() {
        session.confirms = true;
        UUID id = persistentOneWayRequest();
        subscribe();
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "SENT", null, null);

        actor.tell(new RpcDeliveryMsg(TENANT, DEVICE, session.id, 1, true));
        system.runUntilIdle();
        verify(rpcDao).updateLater(id, "DELIVERED", null, null);
    }

    @Test
    void aRequestItsSessionLostBeforeTheAcknowledgementWaitsForTheNextSession() {
        session.confirms = true;
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(true);
        system.runUntilIdle();

        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, session, SessionSubscribeMsg.Topic.RPC, false));
        actor.tell(new RpcDeliveryMsg(TENANT, DEVICE, session.id, 1, false));
        RecordingSession next = new RecordingSession();
        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, next, SessionSubscribeMsg.Topic.RPC, true));
        system.runUntilIdle();

        assertThat(next.requests).containsExactly("1:setMode");
        assertThat(outcome.join().status()).as("the next session writes it at QoS 0").isEqualTo(RpcStatus.DELIVERED);
    }

    @Test
    void aRequestItsSessionLostGoesAtOnceToAnotherSessionSubscribedMeanwhile() {
        session.confirms = true;
        subscribe();
        CompletableFuture<RpcOutcome> outcome = request(true);
        system.runUntilIdle();
        RecordingSession other = new RecordingSession();
        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, other, SessionSubscribeMsg.Topic.RPC, true));
        system.runUntilIdle();
        assertThat(other.requests).as("already sent: not sent again while its session may acknowledge it").isEmpty();

        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, session, SessionSubscribeMsg.Topic.RPC, false));
        actor.tell(new RpcDeliveryMsg(TENANT, DEVICE, session.id, 1, false));
        system.runUntilIdle();

        assertThat(other.requests).containsExactly("1:setMode");
        assertThat(outcome.join().status()).isEqualTo(RpcStatus.DELIVERED);
    }

    private void subscribe() {
        actor.tell(new SessionSubscribeMsg(TENANT, DEVICE, session, SessionSubscribeMsg.Topic.RPC, true));
    }

    private CompletableFuture<RpcOutcome> request(boolean oneway) {
        CompletableFuture<RpcOutcome> outcome = new CompletableFuture<>();
        actor.tell(new ToDeviceRpcMsg(TENANT, DEVICE, UUID.randomUUID(), oneway, "setMode",
                JsonNodeFactory.instance.objectNode().put("mode", "eco"), TIMEOUT_MS, false, 0, outcome));
        return outcome;
    }

    private UUID persistentRequest(long expiresInMs) {
        UUID id = UUID.randomUUID();
        actor.tell(new ToDeviceRpcMsg(TENANT, DEVICE, id, false, "setMode", JsonNodeFactory.instance.objectNode(),
                TIMEOUT_MS, true, System.currentTimeMillis() + expiresInMs, new CompletableFuture<>()));
        return id;
    }

    private UUID persistentOneWayRequest() {
        UUID id = UUID.randomUUID();
        actor.tell(new ToDeviceRpcMsg(TENANT, DEVICE, id, true, "setMode", JsonNodeFactory.instance.objectNode(),
                TIMEOUT_MS, true, System.currentTimeMillis() + 60_000, new CompletableFuture<>()));
        return id;
    }

    private static final class RecordingSession implements DeviceSession {
        private final UUID id = UUID.randomUUID();
        private boolean confirms;
        private final List<String> requests = new ArrayList<>();
        private final List<String> attributeUpdates = new ArrayList<>();
        private boolean open = true;
        private int attempts;

        @Override
        public UUID sessionId() {
            return id;
        }

        @Override
        public boolean sendRpcRequest(int requestId, String method, JsonNode params) {
            attempts++;
            if (!open) {
                return false;
            }
            requests.add(requestId + ":" + method);
            return true;
        }

        @Override
        public boolean confirmsRpcDelivery() {
            return confirms;
        }

        @Override
        public boolean sendAttributesUpdate(JsonNode changed) {
            attributeUpdates.add(changed.toString());
            return true;
        }
    }
}
