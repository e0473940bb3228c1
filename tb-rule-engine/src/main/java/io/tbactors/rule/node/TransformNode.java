package io.tbactors.rule.node;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgData;
import io.tbactors.rule.spel.MsgExpression;

/**
 * {@code transform}: changes the message's data. Every {@code set} expression is evaluated on the incoming
 * message first; then {@code rename} moves keys, {@code set} writes the values (a null value removes the key) and
 * {@code remove} drops keys. Leaves on {@code Success}.
 */
public final class TransformNode implements TbNode<TransformNode.Config> {

    /** The type name. */
    public static final String TYPE = "transform";

    /**
     * @param set key to expression giving its new value
     * @param rename old key to new key
     * @param remove keys to drop
     */
    public record Config(Map<String, MsgExpression> set, Map<String, String> rename, List<String> remove) {

        /** Absent parts are empty. */
        public Config {
            set = set == null ? Map.of() : new LinkedHashMap<>(set);
            rename = rename == null ? Map.of() : new LinkedHashMap<>(rename);
            remove = remove == null ? List.of() : List.copyOf(remove);
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Config> configurationType() {
        return Config.class;
    }

    @Override
    public Set<String> relations(Config configuration) {
        return Set.of(Relations.SUCCESS);
    }

    @Override
    public void validate(Config configuration, NodeConfigErrors errors) {
        if (configuration.set().isEmpty() && configuration.rename().isEmpty() && configuration.remove().isEmpty()) {
            errors.error("set", "a transform needs at least one of 'set', 'rename' or 'remove'");
        }
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        Config config = ctx.configuration();
        Map<String, Object> computed = new LinkedHashMap<>();
        for (Map.Entry<String, MsgExpression> entry : config.set().entrySet()) {
            computed.put(entry.getKey(), TbMsgData.normalize(entry.getValue().evaluate(msg)));
        }
        Map<String, Object> data = new LinkedHashMap<>(msg.data());
        for (Map.Entry<String, String> entry : config.rename().entrySet()) {
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
        config.remove().forEach(data::remove);
        callback.tellSuccess(msg.withData(data));
    }
}
