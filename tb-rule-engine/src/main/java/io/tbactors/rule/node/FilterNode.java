package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.rule.TbMsg;
import org.springframework.expression.Expression;

/**
 * {@code filter}: routes on {@code True} or {@code False} by a SpEL condition ({@code condition}).
 */
public final class FilterNode implements RuleNode {

    private final Expression condition;

    /** @param condition a boolean expression over the message */
    public FilterNode(Expression condition) {
        this.condition = condition;
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        return RuleNodeResult.of(msg, MsgExpressions.test(condition, msg) ? Relations.TRUE : Relations.FALSE);
    }
}
