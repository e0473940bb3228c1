package io.tbactors.rule;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.rule.spel.MsgExpression;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Shared helpers of the module's tests: a registry of the built-in node types and a test type, messages, JSON.
 */
public final class RuleTestSupport {

    /** A JSON mapper. */
    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** The built-in node types and {@link ThresholdNode}. */
    public static final RuleNodeRegistry REGISTRY = RuleNodeRegistry.withBuiltIns(List.of(new ThresholdNode()), JSON);

    private RuleTestSupport() {
    }

    /** How far a reading may go. */
    public enum Level {
        /** Low. */
        LOW,
        /** High. */
        HIGH
    }

    /**
     * A node type with a required string, an enum and an expression, for tests of configuration binding:
     * {@code threshold} leaves on {@code Above} when its condition holds, otherwise {@code Below}.
     */
    public static final class ThresholdNode implements TbNode<ThresholdNode.Config> {

        /**
         * @param name required
         * @param level an enum
         * @param condition required
         * @param limit a number
         */
        public record Config(@JsonProperty(required = true) String name, Level level,
                             @JsonProperty(required = true) MsgExpression condition, Double limit) {
        }

        @Override
        public String type() {
            return "threshold";
        }

        @Override
        public Class<Config> configurationType() {
            return Config.class;
        }

        @Override
        public Set<String> relations(Config configuration) {
            return Set.of("Above", "Below");
        }

        @Override
        public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
            callback.tellNext(msg, ctx.configuration().condition().test(msg) ? "Above" : "Below");
        }
    }

    /**
     * @param json a JSON text, single quotes allowed for readability
     * @return the tree
     */
    public static JsonNode json(String json) {
        return JSON.readTree(json.replace('\'', '"'));
    }

    /**
     * @param type the message type
     * @param data the data
     * @return a message from a random device at time 1000
     */
    public static TbMsg msg(String type, Map<String, Object> data) {
        return new TbMsg(UUID.randomUUID(), type, UUID.randomUUID(), UUID.randomUUID(), 1000, new LinkedHashMap<>(data),
                Map.of("deviceName", "d1"), new TbMsgTracker(RuleEngineListener.NONE, TbMsgCallback.NONE));
    }

    /**
     * @param data the data
     * @return a telemetry message
     */
    public static TbMsg telemetry(Map<String, Object> data) {
        return msg(TbMsgType.POST_TELEMETRY_REQUEST, data);
    }
}
