package io.tbactors.rule.node;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.spel.MsgExpression;

/**
 * {@code switch}: routes on the relation(s) an expression names: {@code expression} gives a string or a list of
 * strings, each one of the declared {@code relations} (a name outside them fails the message, naming both).
 */
public final class SwitchNode implements TbNode<SwitchNode.Config> {

    /** The type name. */
    public static final String TYPE = "switch";

    /**
     * @param expression gives the relation name, or a list of them
     * @param relations the relations a message can leave on, at least one
     */
    public record Config(@JsonProperty(required = true) MsgExpression expression,
                         @JsonProperty(required = true) List<String> relations) {
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
        return new LinkedHashSet<>(configuration.relations());
    }

    @Override
    public void validate(Config configuration, NodeConfigErrors errors) {
        if (configuration.relations().isEmpty()) {
            errors.error("relations", "must name at least one relation");
        }
    }

    @Override
    public void onMsg(TbNodeContext<Config> ctx, TbMsg msg, TbNodeCallback callback) {
        Object value = ctx.configuration().expression().evaluate(msg);
        List<String> next = new ArrayList<>();
        if (value instanceof String relation) {
            next.add(relation);
        } else if (value instanceof Collection<?> relations) {
            relations.forEach(relation -> next.add(String.valueOf(relation)));
        } else {
            throw new RuleNodeException("switch expression '" + ctx.configuration().expression() + "' gave " + value
                    + ", not a relation name or a list of them");
        }
        callback.tellNext(msg, next);
    }
}
