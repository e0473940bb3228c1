package io.tbactors.sample.iot.rule.node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tbactors.sample.iot.alarm.AlarmService;
import io.tbactors.sample.iot.alarm.AlarmSeverity;
import io.tbactors.sample.iot.rule.RuleChainValidationException;
import io.tbactors.sample.iot.rule.RuleNodeDefinition;
import io.tbactors.sample.iot.telemetry.AttributesDao;
import io.tbactors.sample.iot.telemetry.TimeseriesDao;
import lombok.RequiredArgsConstructor;
import org.springframework.expression.Expression;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes rule nodes from their definitions. The same code validates a chain (collecting every error with its
 * location) and builds its nodes, so a chain that passed validation always builds.
 */
@Component
@RequiredArgsConstructor
public class RuleNodeFactory {

    /** The node types this factory knows. */
    public static final List<String> TYPES = List.of("filter", "transform", "message-type-switch", "save-timeseries",
            "save-attributes", "create-alarm", "clear-alarm", "log");

    private static final String CONDITION = "condition";
    private static final String ALARM_TYPE = "alarmType";

    private final TimeseriesDao timeseriesDao;
    private final AttributesDao attributesDao;
    private final AlarmService alarmService;
    private final JsonMapper jsonMapper;

    /**
     * @param definition a node's definition
     * @return the node
     * @throws RuleChainValidationException when the definition is invalid
     */
    public RuleNode create(RuleNodeDefinition definition) {
        List<String> errors = new ArrayList<>();
        RuleNode node = build(definition, "node '" + definition.id() + "'", errors);
        if (!errors.isEmpty()) {
            throw new RuleChainValidationException(errors);
        }
        return node;
    }

    /**
     * Builds a node, recording what is wrong with its definition instead of throwing.
     *
     * @param definition the node's definition
     * @param path where the node is in the chain, e.g. {@code nodes[2]}
     * @param errors where errors are added
     * @return the node, or null when its definition has errors
     */
    public RuleNode build(RuleNodeDefinition definition, String path, List<String> errors) {
        int errorsBefore = errors.size();
        NodeConfig config = new NodeConfig(definition.configuration(), path + ".configuration", errors);
        RuleNode node = switch (definition.type()) {
            case "filter" -> new FilterNode(condition(config));
            case "transform" -> transform(config);
            case "message-type-switch" -> new MessageTypeSwitchNode();
            case "save-timeseries" -> new SaveTimeseriesNode(timeseriesDao);
            case "save-attributes" -> new SaveAttributesNode(attributesDao);
            case "create-alarm" -> new CreateAlarmNode(alarmService, jsonMapper, config.requiredString(ALARM_TYPE),
                    config.optionalEnum("severity", AlarmSeverity.class, AlarmSeverity.MAJOR), condition(config));
            case "clear-alarm" -> new ClearAlarmNode(alarmService, config.requiredString(ALARM_TYPE), condition(config));
            case "log" -> new LogNode(definition.name(), MsgExpressions.parse(config, "message", config.optionalString("message")));
            default -> {
                errors.add(path + ".type: unknown node type '" + definition.type() + "'; known types: " + TYPES);
                yield null;
            }
        };
        return errors.size() == errorsBefore ? node : null;
    }

    private static Expression condition(NodeConfig config) {
        return MsgExpressions.parse(config, CONDITION, config.requiredString(CONDITION));
    }

    private static RuleNode transform(NodeConfig config) {
        Map<String, Expression> set = new LinkedHashMap<>();
        config.optionalStringMap("set").forEach((key, text) -> set.put(key, MsgExpressions.parse(config, "set." + key, text)));
        Map<String, String> rename = config.optionalStringMap("rename");
        List<String> remove = config.optionalStringList("remove");
        if (set.isEmpty() && rename.isEmpty() && remove.isEmpty()) {
            config.error("set", "a transform needs at least one of 'set', 'rename' or 'remove'");
        }
        if (set.containsValue(null)) {
            return null;
        }
        return new TransformNode(set, rename, remove);
    }
}
