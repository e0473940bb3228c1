package io.tbactors.rule.node;

import java.util.List;

import io.tbactors.rule.TbMsg;

/**
 * A node's output: the message and the relations it leaves on (usually one).
 *
 * @param msg the message to pass on
 * @param relations the relations, e.g. {@code Success}
 */
public record RuleNodeResult(TbMsg msg, List<String> relations) {

    /**
     * @param msg the message to pass on
     * @param relation the one relation it leaves on
     * @return the result
     */
    public static RuleNodeResult of(TbMsg msg, String relation) {
        return new RuleNodeResult(msg, List.of(relation));
    }
}
