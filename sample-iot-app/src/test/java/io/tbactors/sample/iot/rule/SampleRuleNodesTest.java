package io.tbactors.sample.iot.rule;

import static io.tbactors.sample.iot.rule.RuleTestSupport.telemetry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.chain.RuleNodeDefinition;
import io.tbactors.rule.node.BoundRuleNode;
import io.tbactors.rule.node.RuleNodeResult;
import io.tbactors.sample.iot.actors.msg.ToServerRpcResponseMsg;
import io.tbactors.sample.iot.alarm.Alarm;
import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.alarm.AlarmSeverity;
import io.tbactors.sample.iot.alarm.AlarmStatus;
import io.tbactors.sample.iot.stats.IotStats;
import org.junit.jupiter.api.Test;

/** The sample's storage and alarm nodes, written against tb-rule-engine's node SPI, over mocks. */
class SampleRuleNodesTest {

    private final RuleTestSupport.Mocks mocks = RuleTestSupport.mocks();
    @Test
    void saveNodesStoreTheirTypeOfMessageAndRefuseOthers() throws Exception {
        BoundRuleNode<?> saveTs = node("save-timeseries", Map.of());
        BoundRuleNode<?> saveAttributes = node("save-attributes", Map.of());
        TbMsg telemetry = telemetry(Map.of("a", 1L));
        TbMsg attributes = RuleTestSupport.msg(new IotStats(), TbMsgType.POST_ATTRIBUTES_REQUEST, Map.of("fw", "1"));

        assertThat(saveTs.processAndWait(telemetry).relations()).containsExactly("Success");
        assertThat(saveAttributes.processAndWait(attributes).relations()).containsExactly("Success");
        assertThatThrownBy(() -> saveTs.processAndWait(attributes)).hasMessageContaining("expects a POST_TELEMETRY_REQUEST");
        assertThatThrownBy(() -> saveAttributes.processAndWait(telemetry)).hasMessageContaining("expects a POST_ATTRIBUTES_REQUEST");
        verify(mocks.timeseriesDao()).save(telemetry.originatorId(), 1000, telemetry.data());
        verify(mocks.attributesDao()).save(attributes.originatorId(), 1000, attributes.data());
    }

    @Test
    void createAlarmRaisesWhenTheConditionHoldsAndReportsAnUpdateForAnActiveOne() throws Exception {
        BoundRuleNode<?> node = node("create-alarm", Map.of("alarmType", "Hot", "severity", "minor", "condition", "data.t > 5"));
        Alarm alarm = alarm();
        when(mocks.alarmService().raise(any(), any(), eq("Hot"), eq(AlarmSeverity.MINOR), anyLong(), anyString()))
                .thenReturn(new AlarmService.RaiseResult(alarm, true), new AlarmService.RaiseResult(alarm, false));

        assertThat(node.processAndWait(telemetry(Map.of("t", 1L))).relations()).containsExactly("False");
        RuleNodeResult created = node.processAndWait(telemetry(Map.of("t", 9L)));
        assertThat(created.relations()).containsExactly("Created");
        assertThat(created.msg().metadata()).containsEntry("alarmId", alarm.id().toString());
        assertThat(node.processAndWait(telemetry(Map.of("t", 9L))).relations()).containsExactly("Updated");
    }

    @Test
    void clearAlarmClearsAnActiveAlarmOnlyWhenTheConditionHolds() throws Exception {
        BoundRuleNode<?> node = node("clear-alarm", Map.of("alarmType", "Hot", "condition", "data.t <= 5"));
        TbMsg normal = telemetry(Map.of("t", 1L));
        when(mocks.alarmService().clear(normal.originatorId(), "Hot", 1000)).thenReturn(Optional.of(alarm()));

        assertThat(node.processAndWait(telemetry(Map.of("t", 9L))).relations()).containsExactly("False");
        assertThat(node.processAndWait(normal).relations()).containsExactly("Cleared");
        assertThat(node.processAndWait(telemetry(Map.of("t", 2L))).relations()).as("nothing active").containsExactly("False");
    }

    @Test
    void rpcCallReplyAnswersTheRequestItsMetadataNamesWithTheMessagesData() throws Exception {
        BoundRuleNode<?> node = node("rpc-call-reply", Map.of());
        UUID session = UUID.randomUUID();
        TbMsg request = RuleTestSupport.msg(new IotStats(), TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("time", 1234L))
                .withMetadata("requestId", "42").withMetadata("sessionId", session.toString());

        assertThat(node.processAndWait(request).relations()).containsExactly("Success");
        verify(mocks.actors()).tell(new ToServerRpcResponseMsg(request.tenantId(), request.originatorId(), session, 42,
                "{\"time\":1234}"));
    }

    @Test
    void rpcCallReplyFailsSayingWhatIsMissing() {
        BoundRuleNode<?> node = node("rpc-call-reply", Map.of());
        TbMsg noSession = RuleTestSupport.msg(new IotStats(), TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("time", 1L))
                .withMetadata("requestId", "42");
        TbMsg noData = RuleTestSupport.msg(new IotStats(), TbMsgType.TO_SERVER_RPC_REQUEST, Map.of())
                .withMetadata("requestId", "42").withMetadata("sessionId", UUID.randomUUID().toString());

        assertThatThrownBy(() -> node.processAndWait(noSession)).hasMessageContaining("no metadata 'sessionId'");
        assertThatThrownBy(() -> node.processAndWait(noData)).hasMessageContaining("data is empty");
        verify(mocks.actors(), never()).tell(any());
    }

    private static Alarm alarm() {
        return new Alarm(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "Hot", AlarmSeverity.MINOR, AlarmStatus.ACTIVE,
                1000, 1000, null, "{}", "Hot", 0L);
    }

    private BoundRuleNode<?> node(String type, Map<String, Object> configuration) {
        return mocks.registry().create(new RuleNodeDefinition("n1", type, "n1", RuleTestSupport.JSON.valueToTree(configuration)));
    }
}
