package io.tbactors.sample.iot.rule.node;

import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.TbMsgType;

/**
 * {@code message-type-switch}: routes telemetry on {@code Post telemetry}, attributes on {@code Post attributes},
 * anything else on {@code Other}.
 */
public final class MessageTypeSwitchNode implements RuleNode {

    @Override
    public RuleNodeResult onMsg(TbMsg msg) {
        String relation = switch (msg.type()) {
            case TbMsgType.POST_TELEMETRY_REQUEST -> Relations.POST_TELEMETRY;
            case TbMsgType.POST_ATTRIBUTES_REQUEST -> Relations.POST_ATTRIBUTES;
            default -> Relations.OTHER;
        };
        return RuleNodeResult.of(msg, relation);
    }
}
