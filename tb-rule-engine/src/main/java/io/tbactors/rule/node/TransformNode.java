package io.tbactors.sample.iot.rule.node;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.telemetry.KvCodec;
import org.springframework.expression.Expression;

/**
 * {@code transform}: changes the message's data. Every {@code set} expression is evaluated on the incoming
 * message first; then {@code rename} moves keys, {@code set} writes the values (a null value removes the key) and
 * {@code remove} drops keys. Leaves on {@code Success}.
 */
public final class TransformNode implements RuleNode {

    private final Map<String, Expression> set;
    private final Map<String, String> rename;
    private final List<String> remove;

    /**
     * @param set key to expression giving its new value
     * @param rename old key to new key
     * @param remove keys to drop
     */
    public TransformNode(Map<String, Expression> set, Map<String, String> rename, List<String> remove) {
        this.set = Map.copyOf(set);
        this.rename = Map.copyOf(rename);
        this.remove = List.copyOf(remove);
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        Map<String, Object> computed = new LinkedHashMap<>();
        for (Map.Entry<String, Expression> entry : set.entrySet()) {
            computed.put(entry.getKey(), KvCodec.normalize(MsgExpressions.evaluate(entry.getValue(), msg)));
        }
        Map<String, Object> data = new LinkedHashMap<>(msg.data());
        for (Map.Entry<String, String> entry : rename.entrySet()) {
            if (data.containsKey(entry.getKey())) {
                data.put(entry.getValue(), data.remove(entry.getKey()));
            }
        }
        for (Map.Entry<String, Object> entry : computed.entrySet()) {
            if (entry.getValue() == null) {
                data.remove(entry.getKey());
            } else {
                data.put(entry.getKey(), entry.getValue());
            }
        }
        remove.forEach(data::remove);
        return RuleNodeResult.of(msg.withData(data), Relations.SUCCESS);
    }
}
