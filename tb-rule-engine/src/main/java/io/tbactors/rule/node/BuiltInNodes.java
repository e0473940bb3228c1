package io.tbactors.rule.node;

import java.util.List;

/**
 * The generic node types every chain can use: {@code filter}, {@code switch}, {@code message-type-switch},
 * {@code transform} and {@code log}.
 */
public final class BuiltInNodes {

    private BuiltInNodes() {
    }

    /** @return a new instance of each built-in node type */
    public static List<TbNode<?>> all() {
        return List.of(new FilterNode(), new SwitchNode(), new MessageTypeSwitchNode(), new TransformNode(), new LogNode());
    }
}
