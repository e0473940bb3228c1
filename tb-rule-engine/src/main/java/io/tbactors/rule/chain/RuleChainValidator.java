package io.tbactors.rule.chain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tbactors.rule.node.RuleNodeRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Reads a rule chain's JSON and checks it: shape, unique node ids, known node types, each type's configuration
 * (bound to the type's configuration class: SpEL expressions parse, required fields are there, no unknown field),
 * connections between existing nodes on relations their source node declares, no cycles. Every error names its
 * location, such as {@code connections[3].to} or {@code nodes[1].configuration.condition}.
 */
public class RuleChainValidator {

    private static final int MAX_NAME_LENGTH = 255;

    private final RuleNodeRegistry nodeRegistry;

    /** @param nodeRegistry the node types a chain may use */
    public RuleChainValidator(RuleNodeRegistry nodeRegistry) {
        this.nodeRegistry = nodeRegistry;
    }

    /**
     * @param json the chain's JSON
     * @param defaultName the name to use when the JSON has none
     * @return the definition
     * @throws RuleChainValidationException listing every error found
     */
    public RuleChainDefinition parse(JsonNode json, String defaultName) {
        List<String> errors = new ArrayList<>();
        if (json == null || !json.isObject()) {
            throw new RuleChainValidationException(List.of("(root): a rule chain must be a JSON object with 'nodes' and 'connections'"));
        }
        String name = text(json, "name", "name", errors, false);
        if (name != null && name.length() > MAX_NAME_LENGTH) {
            errors.add("name: must be at most " + MAX_NAME_LENGTH + " characters");
        }
        List<RuleNodeDefinition> nodes = parseNodes(json.get("nodes"), errors);
        Map<String, Integer> nodeIndex = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            RuleNodeDefinition node = nodes.get(i);
            if (node.id() != null) {
                Integer earlier = nodeIndex.putIfAbsent(node.id(), i);
                if (earlier != null) {
                    errors.add("nodes[" + i + "].id: '" + node.id() + "' is already the id of nodes[" + earlier + "]");
                }
            }
        }
        List<RuleConnection> connections = parseConnections(json.get("connections"), nodeIndex, errors);
        checkRelations(nodes, nodeIndex, connections, errors);
        String firstNodeId = text(json, "firstNodeId", "firstNodeId", errors, false);
        if (firstNodeId == null && !nodes.isEmpty()) {
            firstNodeId = nodes.get(0).id();
        } else if (firstNodeId != null && !nodeIndex.containsKey(firstNodeId)) {
            errors.add("firstNodeId: no node has id '" + firstNodeId + "'");
        }
        if (errors.isEmpty()) {
            findCycle(nodes, connections, errors);
        }
        if (!errors.isEmpty()) {
            throw new RuleChainValidationException(errors);
        }
        return new RuleChainDefinition(name == null ? defaultName : name, firstNodeId, List.copyOf(nodes), List.copyOf(connections));
    }

    private List<RuleNodeDefinition> parseNodes(JsonNode json, List<String> errors) {
        List<RuleNodeDefinition> nodes = new ArrayList<>();
        if (json == null || !json.isArray() || json.isEmpty()) {
            errors.add("nodes: required, a non-empty array of nodes");
            return nodes;
        }
        for (int i = 0; i < json.size(); i++) {
            String path = "nodes[" + i + "]";
            JsonNode item = json.get(i);
            if (!item.isObject()) {
                errors.add(path + ": must be an object with id, type, name and configuration");
                continue;
            }
            String id = text(item, "id", path + ".id", errors, true);
            String type = text(item, "type", path + ".type", errors, true);
            String name = text(item, "name", path + ".name", errors, false);
            JsonNode configuration = item.get("configuration");
            if (configuration == null || configuration.isNull()) {
                configuration = JsonNodeFactory.instance.objectNode();
            } else if (!configuration.isObject()) {
                errors.add(path + ".configuration: must be a JSON object");
                continue;
            }
            JsonNode debugMode = item.get("debugMode");
            if (debugMode != null && !debugMode.isNull() && !debugMode.isBoolean()) {
                errors.add(path + ".debugMode: must be true or false");
            }
            RuleNodeDefinition node = new RuleNodeDefinition(id, type, name == null ? id : name, configuration,
                    debugMode != null && debugMode.isBoolean() && debugMode.booleanValue());
            if (type != null) {
                nodeRegistry.bind(node, path, errors);
            }
            nodes.add(node);
        }
        return nodes;
    }

    private static List<RuleConnection> parseConnections(JsonNode json, Map<String, Integer> nodeIndex, List<String> errors) {
        List<RuleConnection> connections = new ArrayList<>();
        if (json == null || json.isNull()) {
            return connections;
        }
        if (!json.isArray()) {
            errors.add("connections: must be an array of {from, to, relation}");
            return connections;
        }
        for (int i = 0; i < json.size(); i++) {
            String path = "connections[" + i + "]";
            JsonNode item = json.get(i);
            if (!item.isObject()) {
                errors.add(path + ": must be an object with from, to and relation");
                continue;
            }
            String from = nodeRef(item, "from", path, nodeIndex, errors);
            String to = nodeRef(item, "to", path, nodeIndex, errors);
            String relation = text(item, "relation", path + ".relation", errors, true);
            connections.add(new RuleConnection(from, to, relation));
        }
        return connections;
    }

    /** A connection on a relation its node never leaves on would never be taken: most likely a typo. */
    private void checkRelations(List<RuleNodeDefinition> nodes, Map<String, Integer> nodeIndex, List<RuleConnection> connections,
                                List<String> errors) {
        for (int i = 0; i < connections.size(); i++) {
            RuleConnection connection = connections.get(i);
            Integer from = connection.from() == null ? null : nodeIndex.get(connection.from());
            if (from == null || connection.relation() == null) {
                continue;
            }
            RuleNodeDefinition node = nodes.get(from);
            Set<String> relations = nodeRegistry.relationsOf(node);
            if (relations != null && !relations.contains(connection.relation())) {
                errors.add("connections[" + i + "].relation: node '" + node.id() + "' (" + node.type() + ") never leaves on '"
                        + connection.relation() + "'; it leaves on " + relations);
            }
        }
    }

    private static String nodeRef(JsonNode item, String field, String path, Map<String, Integer> nodeIndex, List<String> errors) {
        String id = text(item, field, path + "." + field, errors, true);
        if (id != null && !nodeIndex.containsKey(id)) {
            errors.add(path + "." + field + ": no node has id '" + id + "'");
        }
        return id;
    }

    private static String text(JsonNode object, String field, String path, List<String> errors, boolean required) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                errors.add(path + ": is required");
            }
            return null;
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            errors.add(path + ": must be a non-blank string");
            return null;
        }
        return value.stringValue();
    }

    private static void findCycle(List<RuleNodeDefinition> nodes, List<RuleConnection> connections, List<String> errors) {
        Map<String, List<String>> next = new LinkedHashMap<>();
        nodes.forEach(node -> next.put(node.id(), new ArrayList<>()));
        connections.forEach(c -> next.get(c.from()).add(c.to()));
        Map<String, Integer> state = new HashMap<>();
        for (String start : next.keySet()) {
            Deque<String> path = new ArrayDeque<>();
            if (visit(start, next, state, path)) {
                List<String> walk = new ArrayList<>(path);
                Collections.reverse(walk);
                List<String> cycle = walk.subList(walk.indexOf(walk.get(walk.size() - 1)), walk.size());
                errors.add("connections: they form a cycle " + String.join(" -> ", cycle)
                        + "; a message would loop forever");
                return;
            }
        }
    }

    private static boolean visit(String node, Map<String, List<String>> next, Map<String, Integer> state, Deque<String> path) {
        Integer seen = state.get(node);
        if (seen != null) {
            if (seen == 1) {
                path.push(node);
                return true;
            }
            return false;
        }
        state.put(node, 1);
        path.push(node);
        for (String target : next.get(node)) {
            if (visit(target, next, state, path)) {
                return true;
            }
        }
        path.pop();
        state.put(node, 2);
        return false;
    }
}
