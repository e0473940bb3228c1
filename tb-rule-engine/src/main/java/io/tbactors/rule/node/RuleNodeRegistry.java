package io.tbactors.rule.node;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.tbactors.rule.chain.RuleChainValidationException;
import io.tbactors.rule.chain.RuleNodeDefinition;
import tools.jackson.databind.json.JsonMapper;

/**
 * The node types a chain may use, by name: the built-in ones and the application's {@link TbNode} beans. Binds a
 * node's definition to its type; the same code validates a chain (collecting every error with its location) and
 * builds its nodes, so a chain that passed validation always builds.
 */
public final class RuleNodeRegistry {

    private final Map<String, TbNode<?>> types = new TreeMap<>();
    private final NodeConfigBinder binder;

    /**
     * @param nodes the node types; two with one name are refused
     * @param jsonMapper binds configurations
     * @throws IllegalStateException when two node types have the same name, naming both classes
     */
    public RuleNodeRegistry(Collection<? extends TbNode<?>> nodes, JsonMapper jsonMapper) {
        for (TbNode<?> node : nodes) {
            String type = node.type();
            if (type == null || type.isBlank()) {
                throw new IllegalStateException("Rule node " + node.getClass().getName() + " declares no type name");
            }
            TbNode<?> earlier = types.putIfAbsent(type, node);
            if (earlier != null) {
                throw new IllegalStateException("Two rule node types are named '" + type + "': " + earlier.getClass().getName()
                        + " and " + node.getClass().getName() + "; give one of them another type()");
            }
        }
        this.binder = new NodeConfigBinder(jsonMapper);
    }

    /**
     * @param appNodes the application's node types; one named like a built-in type replaces it
     * @param jsonMapper binds configurations
     * @return a registry of the built-in types and the application's
     */
    public static RuleNodeRegistry withBuiltIns(Collection<? extends TbNode<?>> appNodes, JsonMapper jsonMapper) {
        List<TbNode<?>> nodes = new ArrayList<>(appNodes);
        for (TbNode<?> builtIn : BuiltInNodes.all()) {
            if (appNodes.stream().noneMatch(node -> builtIn.type().equals(node.type()))) {
                nodes.add(builtIn);
            }
        }
        return new RuleNodeRegistry(nodes, jsonMapper);
    }

    /** @return the known type names, sorted */
    public Set<String> types() {
        return types.keySet();
    }

    /**
     * @param definition a node's definition
     * @return the node bound to its configuration
     * @throws RuleChainValidationException when the definition is invalid
     */
    public BoundRuleNode<?> create(RuleNodeDefinition definition) {
        List<String> errors = new ArrayList<>();
        BoundRuleNode<?> node = bind(definition, "node '" + definition.id() + "'", errors);
        if (!errors.isEmpty()) {
            throw new RuleChainValidationException(errors);
        }
        return node;
    }

    /**
     * Binds a node, recording what is wrong with its definition instead of throwing.
     *
     * @param definition the node's definition
     * @param path where the node is in the chain, e.g. {@code nodes[2]}
     * @param errors where errors are added
     * @return the node, or null when its definition has errors
     */
    public BoundRuleNode<?> bind(RuleNodeDefinition definition, String path, List<String> errors) {
        TbNode<?> type = types.get(definition.type());
        if (type == null) {
            errors.add(path + ".type: unknown node type '" + definition.type() + "'; known types: " + types.keySet());
            return null;
        }
        return bind(type, definition, path, errors);
    }

    /**
     * @param definition a node's definition
     * @return the relations it can leave on, {@code Failure} included; null when the node does not bind
     */
    public Set<String> relationsOf(RuleNodeDefinition definition) {
        BoundRuleNode<?> node = bind(definition, "", new ArrayList<>());
        return node == null ? null : node.relations();
    }

    private <C> BoundRuleNode<C> bind(TbNode<C> type, RuleNodeDefinition definition, String path, List<String> errors) {
        int before = errors.size();
        String configPath = path + ".configuration";
        C configuration = binder.bind(definition.configuration(), type.configurationType(), configPath, errors);
        if (errors.size() != before) {
            return null;
        }
        type.validate(configuration, new NodeConfigErrors(configPath, errors));
        return errors.size() != before ? null : new BoundRuleNode<>(type, definition, configuration);
    }
}
