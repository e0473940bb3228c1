package io.tbactors.rule.testing;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.node.TbNode;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;

/**
 * Stands in for a node of a chain under test: records what it receives and answers with the relation(s) it is
 * told, leaving the message unchanged.
 */
public final class ProbeNode implements TbNode<Void> {

    private final String type;
    private final Set<String> relations;
    private final Function<TbMsg, List<String>> answer;
    private final List<TbMsg> received = new CopyOnWriteArrayList<>();

    ProbeNode(String type, Set<String> relations, Function<TbMsg, List<String>> answer) {
        this.type = type;
        this.relations = relations;
        this.answer = answer;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Class<Void> configurationType() {
        return Void.class;
    }

    @Override
    public Set<String> relations(Void configuration) {
        return relations;
    }

    @Override
    public void onMsg(TbNodeContext<Void> ctx, TbMsg msg, TbNodeCallback callback) {
        received.add(msg);
        callback.tellNext(msg, answer.apply(msg));
    }

    /** @return the messages it received, in order */
    public List<TbMsg> received() {
        return List.copyOf(received);
    }
}
