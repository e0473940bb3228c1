package io.tbactors.sample.iot.actors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorRef;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.actors.msg.ToRuleEngineMsg;
import io.tbactors.sample.iot.actors.msg.RemoteSessions;
import io.tbactors.sample.iot.actors.msg.RpcOutcome;
import io.tbactors.sample.iot.actors.msg.RpcStatus;
import io.tbactors.sample.iot.actors.msg.ToServerRpcRequestMsg;
import io.tbactors.sample.iot.actors.msg.ToServerRpcResponseMsg;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.device.Device;
import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.rule.RuleChainService;
import io.tbactors.sample.iot.stats.IotStats;
import io.tbactors.sample.iot.storage.RpcDao;
import io.tbactors.testkit.TbActorProbe;
import io.tbactors.testkit.TbTestActorSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A device's own RPC requests (client-side RPC) in its actor, on a manual actor system under a probe standing for the
 * tenant actor: the request enters the rule engine as ThingsBoard's {@code TO_SERVER_RPC_REQUEST} message, the
 * chain's answer ends it, and a timeout and the answer are played in both orders.
 */
class DeviceActorClientRpcTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID DEVICE = UUID.randomUUID();
    private static final UUID SESSION = UUID.randomUUID();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final IotStats stats = new IotStats();
    private TbTestActorSystem system;
    private TbActorProbe tenant;
    private TbActorRef actor;

    @BeforeEach
    void startDeviceActorUnderATenantProbe() {
        DeviceService deviceService = mock(DeviceService.class);
        when(deviceService.findById(DEVICE)).thenReturn(Optional.of(new Device(DEVICE, TENANT, "boiler", "thermostat",
                "token", 0L, 0L)));
        SampleProperties properties = new SampleProperties();
        properties.getRpc().setMaxPendingPerDevice(2);
        properties.getRpc().setClientSideTimeout(TIMEOUT);
        RpcDao rpcDao = mock(RpcDao.class);
        when(rpcDao.findActive(DEVICE)).thenReturn(List.of());
        IotActorServices services = new IotActorServices(deviceService, mock(RuleChainService.class),
                mock(RuleEngineContext.class), stats, properties, rpcDao, JsonMapper.builder().build(),
                new StaticListableBeanFactory().getBeanProvider(RemoteSessions.class));
        system = TbTestActorSystem.manual();
        tenant = system.probes().spawn("tenant");
        actor = system.createChildActor(TbActorCreator.of(IotActorIds.device(DEVICE),
                () -> new DeviceActor(services, TENANT, DEVICE)), tenant.getActorId());
        system.runUntilIdle();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    @Test
    void aRequestEntersTheRootChainAsThingsBoardsMessageNamingItsRequestAndSession() {
        request(7);
        system.runUntilIdle();

        TbMsg msg = tenant.expectMessage(ToRuleEngineMsg.class).msg();
        assertThat(msg.type()).isEqualTo(TbMsgType.TO_SERVER_RPC_REQUEST);
        assertThat(msg.originatorId()).isEqualTo(DEVICE);
        assertThat(msg.data()).containsEntry("method", "getCurrentTime");
        assertThat(msg.data().get("params")).isEqualTo(Map.of("unit", "ms"));
        assertThat(msg.metadata()).containsEntry("requestId", "7").containsEntry("sessionId", SESSION.toString())
                .containsEntry("deviceName", "boiler").containsEntry("deviceType", "thermostat");
    }

    @Test
    void theChainsAnswerEndsTheRequestAndASecondAnswerIsCountedAndDropped() {
        CompletableFuture<RpcOutcome> reply = request(7);
        system.runUntilIdle();

        actor.tell(new ToServerRpcResponseMsg(TENANT, DEVICE, SESSION, 7, "{\"time\":1}"));
        actor.tell(new ToServerRpcResponseMsg(TENANT, DEVICE, SESSION, 7, "{\"time\":2}"));
        system.runUntilIdle();

        assertThat(reply.join()).isEqualTo(RpcOutcome.successful("{\"time\":1}"));
        assertThat(stats.getClientRpcOutcomes("SUCCESSFUL")).isEqualTo(1);
        assertThat(stats.getClientRpcLateReplies()).isEqualTo(1);
    }

    @Test
    void aRequestNothingAnswersTimesOutAndTheLateAnswerIsCountedNotDelivered() {
        CompletableFuture<RpcOutcome> reply = request(7);
        system.runUntilIdle();

        // the timer fires (its message is queued), then the answer arrives behind it
        system.scheduler().advance(TIMEOUT);
        actor.tell(new ToServerRpcResponseMsg(TENANT, DEVICE, SESSION, 7, "{\"late\":true}"));
        system.runUntilIdle();

        assertThat(reply.join().status()).isEqualTo(RpcStatus.TIMEOUT);
        assertThat(reply.join().reason()).contains("within 5000 ms", "sample.rpc.client-side-timeout");
        assertThat(stats.getClientRpcOutcomes("TIMEOUT")).isEqualTo(1);
        assertThat(stats.getClientRpcLateReplies()).isEqualTo(1);
    }

    @Test
    void theAnswerQueuedBeforeTheFiredTimeoutWins() {
        CompletableFuture<RpcOutcome> reply = request(7);
        system.runUntilIdle();

        actor.tell(new ToServerRpcResponseMsg(TENANT, DEVICE, SESSION, 7, "{\"ok\":true}"));
        system.scheduler().advance(TIMEOUT);
        system.runUntilIdle();

        assertThat(reply.join()).isEqualTo(RpcOutcome.successful("{\"ok\":true}"));
        assertThat(stats.getClientRpcOutcomes("TIMEOUT")).isZero();
    }

    @Test
    void aRequestPastTheBoundOrReusingAWaitingIdIsRefusedAtOnceAndNotSentToTheChain() {
        request(1);
        CompletableFuture<RpcOutcome> sameId = request(1);
        request(2);
        CompletableFuture<RpcOutcome> third = request(3);
        system.runUntilIdle();

        assertThat(sameId.join().status()).isEqualTo(RpcStatus.FAILED);
        assertThat(sameId.join().reason()).contains("still waits");
        assertThat(third.join().refused()).isTrue();
        assertThat(third.join().reason()).contains("sample.rpc.max-pending-per-device");
        tenant.expectMessage(ToRuleEngineMsg.class);
        tenant.expectMessage(ToRuleEngineMsg.class);
        tenant.expectNoMessage();
    }

    @Test
    void stoppingTheActorFailsTheWaitingRequestsWithTheReason() {
        CompletableFuture<RpcOutcome> reply = request(7);
        system.runUntilIdle();

        system.system().stop(actor);
        system.runUntilIdle();

        assertThat(reply.join().status()).isEqualTo(RpcStatus.FAILED);
        assertThat(reply.join().reason()).contains("stopped");
    }

    private CompletableFuture<RpcOutcome> request(int requestId) {
        CompletableFuture<RpcOutcome> reply = new CompletableFuture<>();
        actor.tell(new ToServerRpcRequestMsg(TENANT, DEVICE, SESSION, requestId, "getCurrentTime",
                JsonNodeFactory.instance.objectNode().put("unit", "ms"), reply));
        return reply;
    }
}
