package io.tbactors.rule.node;

import static io.tbactors.rule.RuleTestSupport.msg;
import static io.tbactors.rule.RuleTestSupport.telemetry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import io.tbactors.rule.RuleTestSupport;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.chain.RuleChainValidationException;
import io.tbactors.rule.chain.RuleNodeDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class BuiltInNodesTest {


    @Test
    void aFilterRoutesOnTrueOrFalseAndAMissingKeyReadsAsNull() throws Exception {
        BoundRuleNode<?> filter = node("filter", Map.of("condition", "data.temperature > 30"));

        assertThat(filter.processAndWait(telemetry(Map.of("temperature", 31.0))).relations()).containsExactly("True");
        assertThat(filter.processAndWait(telemetry(Map.of("temperature", 30L))).relations()).containsExactly("False");
        assertThat(filter.processAndWait(telemetry(Map.of("humidity", 50L))).relations()).containsExactly("False");
    }

    @Test
    void aFilterSeesMetadataAndMessageTypeAndMethodsOfValues() throws Exception {
        BoundRuleNode<?> filter = node("filter", Map.of("condition",
                "metadata.deviceName == 'd1' && msgType == 'POST_TELEMETRY_REQUEST' && data['name'].startsWith('pump')"));

        assertThat(filter.processAndWait(telemetry(Map.of("name", "pump-7"))).relations()).containsExactly("True");
    }

    @Test
    void aFilterWhoseConditionIsNotABooleanThrows() {
        BoundRuleNode<?> filter = node("filter", Map.of("condition", "data.temperature"));

        assertThatThrownBy(() -> filter.processAndWait(telemetry(Map.of("temperature", 5L))))
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
        BoundRuleNode<?> transform = node("transform", Map.of("set", Map.of("x", "data.loc.put('lat', 0)")));
        TbMsg msg = telemetry(Map.of()).withData(Map.of("loc", new java.util.HashMap<>(Map.of("lat", 5L))));

        assertThatThrownBy(() -> transform.processAndWait(msg)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(msg.data()).isEqualTo(Map.of("loc", Map.of("lat", 5L)));
    }

    @Test
    void aLogNodeEscapesControlCharactersSoDeviceDataCannotForgeLogLines(CapturedOutput output) throws Exception {
        BoundRuleNode<?> log = node("log", Map.of("message", "'name: ' + data.name"));

        log.processAndWait(telemetry(Map.of("name", "pump\n2026-01-01 ERROR forged line\u0007")));

        assertThat(output.getOut()).contains("name: pump\\n2026-01-01 ERROR forged line\\u0007")
                .doesNotContain("\n2026-01-01 ERROR forged");
    }

    @Test
    void aTransformRenamesSetsAndRemovesKeysFromTheIncomingData() throws Exception {
        BoundRuleNode<?> transform = node("transform", Map.of("rename", Map.of("temp", "temperature"),
                "set", Map.of("fahrenheit", "data.temp * 9 / 5 + 32", "raw", "null"), "remove", List.of("debug")));
        TbMsg in = telemetry(Map.of("temp", 100L, "raw", "x", "debug", true, "keep", 1L));

        RuleNodeResult result = transform.processAndWait(in);

        assertThat(result.relations()).containsExactly("Success");
        assertThat(result.msg().data()).containsOnly(Map.entry("temperature", 100L), Map.entry("fahrenheit", 212L),
                Map.entry("keep", 1L));
        assertThat(in.data()).as("the incoming message is unchanged").containsKey("temp");
        assertThat(result.msg().id()).isEqualTo(in.id());
    }

    @Test
    void theMessageTypeSwitchRoutesByType() throws Exception {
        BoundRuleNode<?> node = node("message-type-switch", Map.of());

        assertThat(node.processAndWait(telemetry(Map.of("a", 1L))).relations()).containsExactly("Post telemetry");
        assertThat(node.processAndWait(msg(TbMsgType.POST_ATTRIBUTES_REQUEST, Map.of())).relations())
                .containsExactly("Post attributes");
        assertThat(node.processAndWait(msg(TbMsgType.TO_SERVER_RPC_REQUEST, Map.of("method", "m"))).relations())
                .containsExactly("RPC Request from Device");
        assertThat(node.processAndWait(msg("RPC", Map.of())).relations()).containsExactly("Other");
    }

    @Test
    void aLogNodeLogsAndPassesTheMessageOn() throws Exception {
        BoundRuleNode<?> plain = node("log", Map.of());
        BoundRuleNode<?> custom = node("log", Map.of("message", "'t is ' + data.t"));
        TbMsg msg = telemetry(Map.of("t", 1L));

        assertThat(plain.processAndWait(msg)).isEqualTo(RuleNodeResult.of(msg, "Success"));
        assertThat(custom.processAndWait(msg).relations()).containsExactly("Success");
    }

    private static BoundRuleNode<?> node(String type, Map<String, Object> configuration) {
        return RuleTestSupport.REGISTRY.create(new RuleNodeDefinition("n1", type, "n1", RuleTestSupport.JSON.valueToTree(configuration)));
    }
}
