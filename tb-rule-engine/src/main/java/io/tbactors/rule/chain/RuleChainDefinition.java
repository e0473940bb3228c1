package io.tbactors.rule.chain;

import java.util.List;

/**
 * A rule chain's JSON: its nodes and the connections between them. Messages enter at {@code firstNodeId}.
 *
 * @param name the chain's name
 * @param firstNodeId the node messages enter at
 */
public record RuleChainDefinition(String name, String firstNodeId, List<RuleNodeDefinition> nodes,
                                  List<RuleConnection> connections) {
}
