package io.tbactors.sample.iot.rule.node;

import java.util.Set;
import java.util.UUID;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.RuleNodeException;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.sample.iot.actors.msg.ToServerRpcResponseMsg;
import io.tbactors.spring.ActorSystemContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code rpc-call-reply} (ThingsBoard's "rpc call reply" node): answers a device's own RPC request with the message's
 * data. The message must carry the request's metadata {@code requestId} and {@code sessionId} (a
 * {@code TO_SERVER_RPC_REQUEST} message has them; keep them through the nodes before this one). The answer goes to the
 * device's actor, which hands it to the waiting session; the message leaves on {@code Success} once it is on its way
 * (an answer that finds its request no longer waiting is counted and dropped there). It leaves on {@code Failure}
 * without that metadata, with empty data, or while the actors are not running.
 */
@Component
public final class RpcCallReplyNode implements TbNode<Void> {

    /** The type name. */
    public static final String TYPE = "rpc-call-reply";

    private final ObjectProvider<ActorSystemContext> actors;
    private final JsonMapper jsonMapper;

    /**
     * @param actors where the answer goes (looked up when a message comes: the actors are built after the nodes)
     * @param jsonMapper writes the answer
     */
    public RpcCallReplyNode(ObjectProvider<ActorSystemContext> actors, JsonMapper jsonMapper) {
        this.actors = actors;
        this.jsonMapper = jsonMapper;
    }

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
        return Set.of(Relations.SUCCESS);
    }

    @Override
    public void onMsg(TbNodeContext<Void> ctx, TbMsg msg, TbNodeCallback callback) {
        int requestId;
        UUID sessionId;
        try {
            requestId = Integer.parseInt(required(msg, "requestId"));
            sessionId = UUID.fromString(required(msg, "sessionId"));
        } catch (IllegalArgumentException notAnId) {
            throw new RuleNodeException(TYPE + " cannot tell which request to answer: " + notAnId.getMessage());
        }
        if (msg.data().isEmpty()) {
            throw new RuleNodeException(TYPE + " has nothing to answer with: the message's data is empty");
        }
        String response = jsonMapper.writeValueAsString(msg.data());
        try {
            actors.getObject().tell(new ToServerRpcResponseMsg(msg.tenantId(), msg.originatorId(), sessionId, requestId,
                    response));
        } catch (IllegalStateException notRunning) {
            throw new RuleNodeException(TYPE + " could not answer: the actors are not running (" + notRunning.getMessage()
                    + ")");
        }
        callback.tellSuccess(msg);
    }

    private static String required(TbMsg msg, String key) {
        String value = msg.metadata().get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the message has no metadata '" + key + "' (a TO_SERVER_RPC_REQUEST "
                    + "message carries 'requestId' and 'sessionId'; keep them through the nodes before this one)");
        }
        return value;
    }
}
