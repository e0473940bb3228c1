package io.tbactors.rule.actors;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CompletionException;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.actors.msg.RetireRuleNodeMsg;
import io.tbactors.rule.actors.msg.RuleNodeInputMsg;
import io.tbactors.rule.actors.msg.RuleNodeOutputMsg;
import io.tbactors.rule.chain.RuleNodeDefinition;
import io.tbactors.rule.node.BoundRuleNode;
import io.tbactors.rule.node.Relations;
import io.tbactors.rule.node.RuleNodeResult;
import io.tbactors.rule.node.PendingNodeResult;
import io.tbactors.rule.node.TbNodeCallback;
import io.tbactors.rule.node.TbNodeContext;
import io.tbactors.rule.stats.NodeStats;
import lombok.extern.slf4j.Slf4j;

/**
 * A rule node's actor: runs its node on each message of a pack (a device request's readings travel the chain
 * together), one message at a time in the pack's order, and reports the pack's results to the chain actor in one
 * message. A node that throws (or whose future fails) sends that message on {@code Failure}, with the error in
 * metadata {@code error}; the others of the pack go on as usual, and the actor goes on with the next pack. A pack
 * with a result that comes later (a node that calls its {@link TbNodeCallback} later, such as a save waiting for
 * its batch's commit) is reported when its last result comes, in the order the packs complete.
 *
 * <p>The node type's {@code init} runs in this actor's init and its {@code destroy} when the actor stops: when its
 * chain's version retires or the chain stops. Each message is counted in the node's {@link NodeStats}.
 */
@Slf4j
public class RuleNodeActor extends AbstractTbActor {

    private final RuleEngineContext context;
    private final UUID chainId;
    private final TbActorId id;
    private final RuleNodeDefinition definition;
    private BoundRuleNode<Object> node;
    private TbNodeContext<Object> nodeContext;
    private Set<String> relations;
    private NodeStats stats;

    RuleNodeActor(RuleEngineContext context, UUID chainId, TbActorId id, RuleNodeDefinition definition) {
        this.context = context;
        this.chainId = chainId;
        this.id = id;
        this.definition = definition;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void init(TbActorCtx ctx) throws TbActorException {
        super.init(ctx);
        BoundRuleNode<Object> bound;
        try {
            bound = (BoundRuleNode<Object>) context.nodes().create(definition);
        } catch (RuntimeException e) {
            throw new TbActorException("Cannot create rule node " + id, e);
        }
        TbNodeContext<Object> created = bound.context(chainId);
        try {
            bound.init(created);
        } catch (Exception e) {
            throw new TbActorException("Rule node " + id + " (" + definition.type() + ") failed to init", e);
        }
        node = bound;
        nodeContext = created;
        relations = bound.relations();
        stats = context.stats().node(chainId, definition.id(), definition.type());
    }

    @Override
    public void destroy(TbActorStopReason stopReason, Throwable cause) {
        if (node == null) {
            return;
        }
        try {
            node.destroy(nodeContext);
        } catch (RuntimeException e) {
            log.warn("[{}] rule node ({}) failed to destroy", id, definition.type(), e);
        }
    }

    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof RuleNodeInputMsg input) {
            onPack(input.msgs());
            return true;
        }
        if (msg instanceof RetireRuleNodeMsg) {
            ctx.stop(ctx.getSelf());
            return true;
        }
        return false;
    }

    /**
     * Runs the node on each message of the pack, in order, in this turn, and reports the pack's results to the chain
     * in one message: at once when every result is there (nodes that finish in the call), otherwise when the last of
     * them comes (a queued save), from the thread that completes it; this actor goes on with its next pack meanwhile.
     */
    private void onPack(List<TbMsg> msgs) {
        TbActorRef chain = ctx.getParentRef();
        List<PendingNodeResult> results = new ArrayList<>(msgs.size());
        // one counter for the pack, not a tree of dependent futures (a pack of 8,000 saves held 16,000 more objects for
        // as long as its saves waited): the results still pending, plus one for this loop, dropped after it
        AtomicInteger left = new AtomicInteger(1);
        Runnable countDown = () -> {
            if (left.decrementAndGet() == 0) {
                chain.tell(outputs(msgs, results));
            }
        };
        for (TbMsg tbMsg : msgs) {
            stats.in(tbMsg);
            PendingNodeResult result = node.process(nodeContext, tbMsg, relations);
            results.add(result);
            if (!result.isDone()) {
                left.incrementAndGet();
                result.whenDone(countDown);
            }
        }
        countDown.run();
    }

    private RuleNodeOutputMsg outputs(List<TbMsg> msgs, List<PendingNodeResult> results) {
        List<RuleNodeOutputMsg.Output> outputs = new ArrayList<>(msgs.size());
        for (int i = 0; i < msgs.size(); i++) {
            TbMsg tbMsg = msgs.get(i);
            RuleNodeResult output;
            Throwable cause = null;
            String error = null;
            try {
                output = results.get(i).join();
            } catch (CompletionException | CancellationException e) {
                cause = unwrap(e);
                output = failed(tbMsg, cause);
                error = output.msg().metadata().get("error");
            }
            long nanos = results.get(i).elapsedNanos();
            stats.out(output.msg(), output.relations(), error, nanos);
            outputs.add(new RuleNodeOutputMsg.Output(output.msg(), output.relations(), cause));
        }
        return new RuleNodeOutputMsg(definition.id(), outputs);
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private RuleNodeResult failed(TbMsg msg, Throwable e) {
        context.listener().nodeFailed();
        if (log.isDebugEnabled()) {
            log.debug("[{}] node failed on message {}", id, msg.id(), e);
        }
        String error = e.getClass().getSimpleName() + ": " + context.failureReason().apply(e);
        return RuleNodeResult.of(msg.withMetadata("error", error), Relations.FAILURE);
    }

    @Override
    public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
        return ProcessFailureStrategy.resume();
    }
}
