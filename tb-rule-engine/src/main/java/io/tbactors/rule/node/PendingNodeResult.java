package io.tbactors.rule.node;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.tbactors.rule.TbMsg;

/**
 * One message's result at a node, completed through {@link TbNodeCallback} once (later calls are ignored). A
 * relation the node does not declare fails the message instead, naming the node, the relation and the declared ones.
 */
public final class PendingNodeResult extends CompletableFuture<RuleNodeResult> implements TbNodeCallback {

    private final String nodeId;
    private final String nodeType;
    private final Set<String> relations;
    private final long startNanos = System.nanoTime();
    private volatile long endNanos;

    /**
     * @param nodeId the node's id
     * @param nodeType its type
     * @param relations the relations it declares, {@code Failure} included
     */
    public PendingNodeResult(String nodeId, String nodeType, Set<String> relations) {
        this.nodeId = nodeId;
        this.nodeType = nodeType;
        this.relations = relations;
    }

    @Override
    public void tellNext(TbMsg msg, List<String> next) {
        for (String relation : next) {
            if (!relations.contains(relation)) {
                tellFailure(msg, new RuleNodeException("rule node '" + nodeId + "' (" + nodeType + ") left on '" + relation
                        + "', which its type does not declare; it declares " + relations));
                return;
            }
        }
        endNanos = System.nanoTime();
        complete(new RuleNodeResult(msg, List.copyOf(next)));
    }

    @Override
    public void tellFailure(TbMsg msg, Throwable failure) {
        completeExceptionally(failure);
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        if (endNanos == 0) {
            endNanos = System.nanoTime();
        }
        return super.completeExceptionally(failure);
    }

    /** @return from creation to completion, nanoseconds; 0 while pending */
    public long elapsedNanos() {
        return endNanos == 0 ? 0 : endNanos - startNanos;
    }
}
