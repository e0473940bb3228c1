package io.tbactors.rule.spel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import org.junit.jupiter.api.Test;

/**
 * What an expression sees as {@code #root}: the message's five names and their values, read from the message only when
 * asked, and nothing it can change.
 */
class MsgRootTest {

    private static final UUID DEVICE = UUID.fromString("5a3c1e80-0000-4000-8000-0000000000aa");

    private static TbMsg msg() {
        return TbMsg.of("POST_TELEMETRY_REQUEST", DEVICE, Map.of("temperature", 21.5), Map.of("deviceName", "d1"),
                TbMsgCallback.NONE);
    }

    private static Map<String, Object> asPlainMap(TbMsg msg) {
        Map<String, Object> plain = new LinkedHashMap<>();
        plain.put("data", msg.data());
        plain.put("metadata", msg.metadata());
        plain.put("msgType", msg.type());
        plain.put("ts", msg.ts());
        plain.put("originator", DEVICE.toString());
        return plain;
    }

    @Test
    void itIsTheMapOfTheMessagesFiveNamesInAFixedOrder() {
        TbMsg msg = msg();
        MsgRoot root = new MsgRoot(msg);

        assertThat(root).isEqualTo(asPlainMap(msg)).hasSameHashCodeAs(asPlainMap(msg));
        assertThat(root.keySet()).containsExactly("data", "metadata", "msgType", "ts", "originator");
        assertThat(root.get("originator")).isEqualTo(DEVICE.toString());
        assertThat(root.get("ts")).isEqualTo(msg.ts());
        assertThat(root.get("nothing")).isNull();
        assertThat(root.get(7)).isNull();
        assertThat(root.containsKey("msgType")).isTrue();
        assertThat(root.containsKey("nothing")).isFalse();
        assertThat(root.containsKey(null)).isFalse();
        assertThat(root.get(null)).isNull();
        assertThat(root).hasToString(asPlainMap(msg).toString());
    }

    @Test
    void aMessageWithoutOriginatorReadsAsTheTextNull() {
        TbMsg msg = TbMsg.of("T", null, Map.of(), Map.of(), TbMsgCallback.NONE);

        assertThat(new MsgRoot(msg).get("originator")).isEqualTo("null");
    }

    @Test
    void itCannotBeChanged() {
        MsgRoot root = new MsgRoot(msg());

        assertThatThrownBy(() -> root.put("ts", 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> root.remove("data")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(root::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> root.entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void expressionsReadTheMessageThroughIt() {
        TbMsg msg = msg();

        assertThat(MsgExpression.parse("data.temperature > 20 && metadata.deviceName == 'd1'").test(msg)).isTrue();
        assertThat(MsgExpression.parse("msgType + ' from ' + originator").evaluate(msg))
                .isEqualTo("POST_TELEMETRY_REQUEST from " + DEVICE);
        assertThat(MsgExpression.parse("ts").evaluate(msg)).isEqualTo(msg.ts());
        assertThat(MsgExpression.parse("#root['msgType']").evaluate(msg)).isEqualTo("POST_TELEMETRY_REQUEST");
        assertThat(MsgExpression.parse("#root.size()").evaluate(msg)).isEqualTo(5);
        assertThat(MsgExpression.parse("data.humidity == null").test(msg)).isTrue();
    }
}
