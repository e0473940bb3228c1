package io.tbactors.rule.chain;

import tools.jackson.databind.JsonNode;

/**
 * One node of a rule chain as written in its JSON.
 *
 * @param id the node's id, unique in the chain
 * @param type the node type, such as {@code filter}
 * @param name a readable name
 * @param configuration the type's settings, a JSON object
 */
public record RuleNodeDefinition(String id, String type, String name, JsonNode configuration) {
}
