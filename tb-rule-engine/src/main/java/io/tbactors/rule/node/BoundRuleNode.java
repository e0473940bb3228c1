package io.tbactors.rule.node;

import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.chain.RuleNodeDefinition;

/**
 * A node of a chain: its type and its bound configuration, ready to run in a node actor.
 *
 * @param type the node type
 * @param definition the node as the chain has it
 * @param configuration the bound configuration
 * @param <C> the configuration type
 */
public record BoundRuleNode<C>(TbNode<C> type, RuleNodeDefinition definition, C configuration) {

    /**
     * @param chainId the chain the node runs in
     * @return the node's context
     */
    public TbNodeContext<C> context(UUID chainId) {
        return new TbNodeContext<>(chainId, definition.id(), definition.name(), configuration);
    }

    /** @return the relations the node can leave on, {@code Failure} included */
    public Set<String> relations() {
        Set<String> relations = new TreeSet<>(type.relations(configuration));
        relations.add(Relations.FAILURE);
        return relations;
    }

    /**
     * @param ctx the node's context
     * @throws Exception when the node cannot start
     */
    public void init(TbNodeContext<C> ctx) throws Exception {
        type.init(ctx);
    }

    /**
     * Runs the node on a message.
     *
     * @param ctx the node's context
     * @param msg the message
     * @return completes when the node ends the message; fails when the node throws or tells a failure
     */
    public PendingNodeResult process(TbNodeContext<C> ctx, TbMsg msg) {
        return process(ctx, msg, relations());
    }

    /**
     * @param ctx the node's context
     * @param msg the message
     * @param relations {@link #relations()}, computed once by the caller
     * @return completes when the node ends the message; fails when the node throws or tells a failure
     */
    public PendingNodeResult process(TbNodeContext<C> ctx, TbMsg msg, Set<String> relations) {
        PendingNodeResult result = new PendingNodeResult(definition.id(), definition.type(), relations);
        try {
            type.onMsg(ctx, msg, result);
        } catch (Exception | StackOverflowError e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /**
     * Runs the node on a message outside an actor and waits for its result: for tests of a node type.
     *
     * @param msg the message
     * @return the message the node passed on and its relations
     * @throws Exception what the node threw or told as its failure
     */
    public RuleNodeResult processAndWait(TbMsg msg) throws Exception {
        try {
            return process(context(null), msg).get(1, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** @param ctx the node's context */
    public void destroy(TbNodeContext<C> ctx) {
        type.destroy(ctx);
    }
}
