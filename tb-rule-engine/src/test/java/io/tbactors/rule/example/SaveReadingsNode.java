package io.tbactors.rule.example;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.node.NodeConfigErrors;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import org.springframework.stereotype.Component;

/** {@code save-readings}: stores the message's readings (only {@code keys} when given); Success once saved. */
@Component
public class SaveReadingsNode implements TbNode<SaveReadingsNode.Config> {

    /** The node's configuration in a chain: {@code "configuration": {"keys": ["temperature"]}}. */
    public record Config(List<String> keys) {
        public Config {
            keys = keys == null ? List.of() : List.copyOf(keys);
        }
    }

    private final ReadingStore store;

    public SaveReadingsNode(ReadingStore store) {
        this.store = store;
    }

    @Override
    public String type() {
        return "save-readings";
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
        if (configuration.keys().stream().anyMatch(String::isBlank)) {
            errors.error("keys", "must not contain a blank key");
        }
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        Map<String, Object> values = new LinkedHashMap<>(msg.data());
        if (!ctx.configuration().keys().isEmpty()) {
            values.keySet().retainAll(ctx.configuration().keys());
        }
        callback.tellSuccessWhen(store.save(msg.originatorId(), msg.ts(), values), msg);
    }
}
