package io.tbactors.rule.node;

import java.util.Set;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgType;

/**
 * {@code message-type-switch}: routes telemetry on {@code Post telemetry}, attributes on {@code Post attributes}, a
 * device's RPC request on {@code RPC Request from Device} (ThingsBoard's relation names), anything else on
 * {@code Other}.
 */
public final class MessageTypeSwitchNode implements TbNode<Void> {

    /** The type name. */
    public static final String TYPE = "message-type-switch";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Void> configurationType() {
        return Void.class;
    }

    @Override
    public Set<String> relations(Void configuration) {
        return Set.of(Relations.POST_TELEMETRY, Relations.POST_ATTRIBUTES, Relations.RPC_REQUEST_FROM_DEVICE,
                Relations.OTHER);
    }

    @Override
    public void onMsg(TbNodeContext<Void> ctx, TbMsg msg, TbNodeCallback callback) {
        String relation = switch (msg.type()) {
            case TbMsgType.POST_TELEMETRY_REQUEST -> Relations.POST_TELEMETRY;
            case TbMsgType.POST_ATTRIBUTES_REQUEST -> Relations.POST_ATTRIBUTES;
            case TbMsgType.TO_SERVER_RPC_REQUEST -> Relations.RPC_REQUEST_FROM_DEVICE;
            default -> Relations.OTHER;
        };
        callback.tellNext(msg, relation);
    }
}
