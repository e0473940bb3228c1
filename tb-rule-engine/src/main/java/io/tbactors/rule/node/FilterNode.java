package io.tbactors.rule.node;

import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.spel.MsgExpression;

/**
 * {@code filter}: routes on {@code True} or {@code False} by a SpEL condition ({@code condition}).
 */
public final class FilterNode implements TbNode<FilterNode.Config> {

    /** The type name. */
    public static final String TYPE = "filter";

    /**
     * @param condition a boolean expression over the message
     */
    public record Config(@JsonProperty(required = true) MsgExpression condition) {
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
        return Set.of(Relations.TRUE, Relations.FALSE);
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        callback.tellNext(msg, ctx.configuration().condition().test(msg) ? Relations.TRUE : Relations.FALSE);
    }
}
