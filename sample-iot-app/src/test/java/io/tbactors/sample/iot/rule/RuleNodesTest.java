package io.tbactors.sample.iot.rule;

import static io.tbactors.sample.iot.rule.RuleTestSupport.telemetry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.tbactors.sample.iot.alarm.Alarm;
import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.alarm.AlarmSeverity;
import io.tbactors.sample.iot.alarm.AlarmStatus;
import io.tbactors.sample.iot.rule.node.RuleNode;
import io.tbactors.sample.iot.rule.node.RuleNodeException;
import io.tbactors.sample.iot.rule.node.RuleNodeResult;
import io.tbactors.sample.iot.stats.IotStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class RuleNodesTest {

    private final RuleTestSupport.Mocks mocks = RuleTestSupport.mocks();

    @Test
    void aFilterRoutesOnTrueOrFalseAndAMissingKeyReadsAsNull() throws Exception {
        RuleNode filter = node("filter", Map.of("condition", "data.temperature > 30"));

        assertThat(filter.onMsg(telemetry(Map.of("temperature", 31.0))).relations()).containsExactly("True");
        assertThat(filter.onMsg(telemetry(Map.of("temperature", 30L))).relations()).containsExactly("False");
        assertThat(filter.onMsg(telemetry(Map.of("humidity", 50L))).relations()).containsExactly("False");
    }

    @Test
    void aFilterSeesMetadataAndMessageTypeAndMethodsOfValues() throws Exception {
        RuleNode filter = node("filter", Map.of("condition",
                "metadata.deviceName == 'd1' && msgType == 'POST_TELEMETRY_REQUEST' && data['name'].startsWith('pump')"));

        assertThat(filter.onMsg(telemetry(Map.of("name", "pump-7"))).relations()).containsExactly("True");
    }

    @Test
    void aFilterWhoseConditionIsNotABooleanThrows() {
        RuleNode filter = node("filter", Map.of("condition", "data.temperature"));

        assertThatThrownBy(() -> filter.onMsg(telemetry(Map.of("temperature", 5L))))
                .isInstanceOf(RuleNodeException.class)
                .hasMessage("condition 'data.temperature' gave 5 (Long), not a boolean");
    }

    @Test
    void expressionsCannotReachTypesOrConstructors() {
        assertThatThrownBy(() -> node("filter", Map.of("condition", "T(java.lang.System).exit(1) == null")))
                .isInstanceOf(RuleChainValidationException.class)
                .hasMessageContaining("node 'n1'.configuration.condition")
                .hasMessageContaining("a type reference T(java.lang.System)");
    }

    @Test
    void anExpressionCannotChangeTheMessagesData() {
        RuleNode transform = node("transform", Map.of("set", Map.of("x", "data.loc.put('lat', 0)")));
        TbMsg msg = telemetry(Map.of()).withData(Map.of("loc", new java.util.HashMap<>(Map.of("lat", 5L))));

        assertThatThrownBy(() -> transform.onMsg(msg)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(msg.data()).isEqualTo(Map.of("loc", Map.of("lat", 5L)));
    }

    @Test
    void aLogNodeEscapesControlCharactersSoDeviceDataCannotForgeLogLines(CapturedOutput output) throws Exception {
        RuleNode log = node("log", Map.of("message", "'name: ' + data.name"));

        log.onMsg(telemetry(Map.of("name", "pump\n2026-01-01 ERROR forged line\u0007")));

        assertThat(output.getOut()).contains("name: pump\\n2026-01-01 ERROR forged line\\u0007")
                .doesNotContain("\n2026-01-01 ERROR forged");
    }

    @Test
    void aTransformRenamesSetsAndRemovesKeysFromTheIncomingData() throws Exception {
        RuleNode transform = node("transform", Map.of("rename", Map.of("temp", "temperature"),
                "set", Map.of("fahrenheit", "data.temp * 9 / 5 + 32", "raw", "null"), "remove", List.of("debug")));
        TbMsg in = telemetry(Map.of("temp", 100L, "raw", "x", "debug", true, "keep", 1L));

        RuleNodeResult result = transform.onMsg(in);

        assertThat(result.relations()).containsExactly("Success");
        assertThat(result.msg().data()).containsOnly(Map.entry("temperature", 100L), Map.entry("fahrenheit", 212L),
                Map.entry("keep", 1L));
        assertThat(in.data()).as("the incoming message is unchanged").containsKey("temp");
        assertThat(result.msg().id()).isEqualTo(in.id());
    }

    @Test
    void theMessageTypeSwitchRoutesByType() throws Exception {
        RuleNode node = node("message-type-switch", Map.of());
        IotStats stats = new IotStats();

        assertThat(node.onMsg(telemetry(Map.of("a", 1L))).relations()).containsExactly("Post telemetry");
        assertThat(node.onMsg(RuleTestSupport.msg(stats, TbMsgType.POST_ATTRIBUTES_REQUEST, Map.of())).relations())
                .containsExactly("Post attributes");
        assertThat(node.onMsg(RuleTestSupport.msg(stats, "RPC", Map.of())).relations()).containsExactly("Other");
    }

    @Test
    void saveNodesStoreTheirTypeOfMessageAndRefuseOthers() throws Exception {
        RuleNode saveTs = node("save-timeseries", Map.of());
        RuleNode saveAttributes = node("save-attributes", Map.of());
        TbMsg telemetry = telemetry(Map.of("a", 1L));
        TbMsg attributes = RuleTestSupport.msg(new IotStats(), TbMsgType.POST_ATTRIBUTES_REQUEST, Map.of("fw", "1"));

        assertThat(saveTs.onMsg(telemetry).relations()).containsExactly("Success");
        assertThat(saveAttributes.onMsg(attributes).relations()).containsExactly("Success");
        assertThatThrownBy(() -> saveTs.onMsg(attributes)).hasMessageContaining("expects a POST_TELEMETRY_REQUEST");
        assertThatThrownBy(() -> saveAttributes.onMsg(telemetry)).hasMessageContaining("expects a POST_ATTRIBUTES_REQUEST");
        verify(mocks.timeseriesDao()).save(telemetry.originatorId(), 1000, telemetry.data());
        verify(mocks.attributesDao()).save(attributes.originatorId(), 1000, attributes.data());
    }

    @Test
    void createAlarmRaisesWhenTheConditionHoldsAndReportsAnUpdateForAnActiveOne() throws Exception {
        RuleNode node = node("create-alarm", Map.of("alarmType", "Hot", "severity", "minor", "condition", "data.t > 5"));
        Alarm alarm = alarm();
        when(mocks.alarmService().raise(any(), any(), eq("Hot"), eq(AlarmSeverity.MINOR), anyLong(), anyString()))
                .thenReturn(new AlarmService.RaiseResult(alarm, true), new AlarmService.RaiseResult(alarm, false));

        assertThat(node.onMsg(telemetry(Map.of("t", 1L))).relations()).containsExactly("False");
        RuleNodeResult created = node.onMsg(telemetry(Map.of("t", 9L)));
        assertThat(created.relations()).containsExactly("Created");
        assertThat(created.msg().metadata()).containsEntry("alarmId", alarm.id().toString());
        assertThat(node.onMsg(telemetry(Map.of("t", 9L))).relations()).containsExactly("Updated");
    }

    @Test
    void clearAlarmClearsAnActiveAlarmOnlyWhenTheConditionHolds() throws Exception {
        RuleNode node = node("clear-alarm", Map.of("alarmType", "Hot", "condition", "data.t <= 5"));
        TbMsg normal = telemetry(Map.of("t", 1L));
        when(mocks.alarmService().clear(normal.originatorId(), "Hot", 1000)).thenReturn(Optional.of(alarm()));

        assertThat(node.onMsg(telemetry(Map.of("t", 9L))).relations()).containsExactly("False");
        assertThat(node.onMsg(normal).relations()).containsExactly("Cleared");
        assertThat(node.onMsg(telemetry(Map.of("t", 2L))).relations()).as("nothing active").containsExactly("False");
    }

    @Test
    void aLogNodeLogsAndPassesTheMessageOn() throws Exception {
        RuleNode plain = node("log", Map.of());
        RuleNode custom = node("log", Map.of("message", "'t is ' + data.t"));
        TbMsg msg = telemetry(Map.of("t", 1L));

        assertThat(plain.onMsg(msg)).isEqualTo(RuleNodeResult.of(msg, "Success"));
        assertThat(custom.onMsg(msg).relations()).containsExactly("Success");
        verifyNoInteractions(mocks.timeseriesDao());
    }

    private RuleNode node(String type, Map<String, Object> configuration) {
        return mocks.factory().create(new RuleNodeDefinition("n1", type, "n1", RuleTestSupport.JSON.valueToTree(configuration)));
    }

    private static Alarm alarm() {
        return new Alarm(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "Hot", AlarmSeverity.MINOR, AlarmStatus.ACTIVE,
                1000, 1000, null, "{}", "Hot", 0L);
    }
}
