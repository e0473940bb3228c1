package io.tbactors.rule.node;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
    /** null, the action {@link #whenDone} registered, or {@link #DONE} once completed and the action taken over. */
    private volatile Object watcher;

    private static final Object DONE = new Object();
    private static final VarHandle WATCHER;

    static {
        try {
            WATCHER = MethodHandles.lookup().findVarHandle(PendingNodeResult.class, "watcher", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
    public boolean complete(RuleNodeResult value) {
        boolean completed = super.complete(value);
        runWatcher();
        return completed;
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        if (endNanos == 0) {
            endNanos = System.nanoTime();
        }
        boolean completed = super.completeExceptionally(failure);
        runWatcher();
        return completed;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        runWatcher();
        return cancelled;
    }

    /**
     * Runs an action once this result is complete: on the thread that completes it, or at once on the caller's when it
     * already is. Unlike a dependent stage it allocates nothing, which matters for a pack of thousands of messages
     * waiting for their saves; it takes one action only.
     *
     * @param action what to run, once
     * @throws IllegalStateException when an action was already registered
     */
    public void whenDone(Runnable action) {
        if (WATCHER.compareAndSet(this, null, action)) {
            // the completing thread takes it (it looks only after the result is complete)
            return;
        }
        if (watcher != DONE) {
            throw new IllegalStateException("a result takes one action only");
        }
        action.run();
    }

    /** After any completion: takes the registered action, if any, and leaves {@link #DONE} for a later one. */
    private void runWatcher() {
        if (WATCHER.getAndSet(this, DONE) instanceof Runnable action) {
            action.run();
        }
    }

    /** @return from creation to completion, nanoseconds; 0 while pending */
    public long elapsedNanos() {
        return endNanos == 0 ? 0 : endNanos - startNanos;
    }
}
