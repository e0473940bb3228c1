package io.tbactors.rule.node;

import java.util.Set;

import io.tbactors.rule.LogSafeText;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.spel.MsgExpression;
import lombok.extern.slf4j.Slf4j;

/**
 * {@code log}: logs the message at INFO (the text of {@code message}, a SpEL expression, when given; otherwise the
 * type, data and metadata), control characters escaped, and leaves on {@code Success}.
 */
@Slf4j
public final class LogNode implements TbNode<LogNode.Config> {

    /** The type name. */
    public static final String TYPE = "log";

    /**
     * @param message an expression for the text, or null for the message's type, data and metadata
     */
    public record Config(MsgExpression message) {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Config> configurationType() {
        return Config.class;
    }

    @Override
    public Set<String> relations(Config configuration) {
        return Set.of(Relations.SUCCESS);
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        if (log.isInfoEnabled()) {
            MsgExpression message = ctx.configuration().message();
            Object text = message == null ? msg.type() + " data=" + msg.data() + " metadata=" + msg.metadata() : message.evaluate(msg);
            // device data in a log line: escaped, so a value with a line break cannot forge further lines
            log.info("[{}] {}", LogSafeText.escape(ctx.nodeName()), LogSafeText.escape(String.valueOf(text)));
        }
        callback.tellSuccess(msg);
    }
}
