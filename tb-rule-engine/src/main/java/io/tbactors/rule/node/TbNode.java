package io.tbactors.sample.iot.rule.node;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import io.tbactors.sample.iot.rule.TbMsg;

/**
 * What a rule node does with one message. Called by its actor, one message at a time, so an implementation may
 * keep state without locks. Throwing routes the message on {@code Failure}; it never stops the actor.
 *
 * <p>A node whose work finishes later, such as a save that is done only when its batch is committed, implements
 * {@link #onMsgAsync}: its actor goes on with the next message meanwhile, and passes the result on when the future
 * completes (a future that fails routes the message on {@code Failure}).
 */
public interface RuleNode {

    /**
     * @param msg the message
     * @return the message to pass on (the same or a changed copy) and the relations it leaves on
     * @throws Exception when the message cannot be processed
     */
    RuleNodeResult onMsg(TbMsg msg) throws Exception;

    /**
     * The actor's entry point. By default {@link #onMsg}'s result, at once.
     *
     * @param msg the message
     * @return completes with the message to pass on and its relations, possibly on another thread; fails when the
     *         message could not be processed
     * @throws Exception when the message cannot be processed
     */
    default CompletableFuture<RuleNodeResult> onMsgAsync(TbMsg msg) throws Exception {
        return CompletableFuture.completedFuture(onMsg(msg));
    }

    /**
     * Waits for an asynchronous result, for callers of {@link #onMsg} on a node that implements {@link #onMsgAsync}.
     *
     * @param result the future
     * @return its result
     * @throws Exception the future's failure
     */
    static RuleNodeResult await(CompletableFuture<RuleNodeResult> result) throws Exception {
        try {
            return result.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }
}
