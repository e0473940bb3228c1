package io.tbactors.rule.chain;

import tools.jackson.databind.JsonNode;

/**
 * One node of a rule chain as written in its file.
 *
 * @param id the node's id, unique in the chain
 * @param type the node type, such as {@code filter}
 * @param name a readable name
 * @param configuration the type's settings, a JSON object
 * @param debugMode whether the node starts in debug mode when its chain's version starts, as ThingsBoard's
 *     {@code debugMode}; the run-time switch (endpoint, {@code RuleNodeStats.setDebug}) still turns it on or off
 */
public record RuleNodeDefinition(String id, String type, String name, JsonNode configuration, boolean debugMode) {

    /**
     * A node without debug mode.
     *
     * @param id the node's id, unique in the chain
     * @param type the node type, such as {@code filter}
     * @param name a readable name
     * @param configuration the type's settings, a JSON object
     */
    public RuleNodeDefinition(String id, String type, String name, JsonNode configuration) {
        this(id, type, name, configuration, false);
    }
}
