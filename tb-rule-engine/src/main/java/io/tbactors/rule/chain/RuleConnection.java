package io.tbactors.rule.chain;

/**
 * A connection between two nodes: messages that leave {@code from} on {@code relation} go to {@code to}.
 *
 * @param from the source node's id
 * @param to the target node's id
 * @param relation the relation, such as {@code Success}, {@code Failure}, {@code True}, {@code False}
 */
public record RuleConnection(String from, String to, String relation) {
}
