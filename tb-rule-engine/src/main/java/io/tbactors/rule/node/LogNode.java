package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.web.LogText;
import lombok.extern.slf4j.Slf4j;
import org.springframework.expression.Expression;

/**
 * {@code log}: logs the message at INFO (the text of {@code message}, a SpEL expression, when given; otherwise the
 * type, data and metadata), control characters escaped, and leaves on {@code Success}.
 */
@Slf4j
public final class LogNode implements RuleNode {

    private final String name;
    private final Expression message;

    /**
     * @param name the node's name, in each line
     * @param message an expression for the text, or null for the default
     */
    public LogNode(String name, Expression message) {
        this.name = name;
        this.message = message;
    }

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        if (log.isInfoEnabled()) {
            Object text = message == null ? msg.type() + " data=" + msg.data() + " metadata=" + msg.metadata()
                    : MsgExpressions.evaluate(message, msg);
            // device data in a log line: escaped, so a value with a line break cannot forge further lines
            log.info("[{}] {}", LogText.escape(name), LogText.escape(String.valueOf(text)));
        }
        return RuleNodeResult.of(msg, Relations.SUCCESS);
    }
}
