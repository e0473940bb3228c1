package io.tbactors.sample.iot.actors;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.sample.iot.actors.msg.RetireRuleNodeMsg;
import io.tbactors.sample.iot.actors.msg.RuleNodeInputMsg;
import io.tbactors.sample.iot.actors.msg.RuleNodeOutputMsg;
import io.tbactors.sample.iot.rule.RuleNodeDefinition;
import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.node.Relations;
import io.tbactors.sample.iot.rule.node.RuleNode;
import io.tbactors.sample.iot.rule.node.RuleNodeResult;
import lombok.extern.slf4j.Slf4j;
import org.springframework.dao.DataAccessException;

/**
 * A rule node's actor: runs its node on each message of a pack (a device request's readings travel the chain
 * together), one message at a time in the pack's order, and reports the pack's results to the chain actor in one
 * message. A node that throws (or whose future fails) sends that message on {@code Failure}, with the error in
 * metadata {@code error}; the others of the pack go on as usual, and the actor goes on with the next pack. A pack
 * with a result that comes later ({@link RuleNode#onMsgAsync}, such as a save waiting for its batch's commit) is
 * reported when its last result comes, in the order the packs' futures complete.
 */
@Slf4j
public class RuleNodeActor extends AbstractTbActor {

    private final IotActorServices services;
    private final TbActorId id;
    private final RuleNodeDefinition definition;
    private RuleNode node;

    RuleNodeActor(IotActorServices services, TbActorId id, RuleNodeDefinition definition) {
        this.services = services;
        this.id = id;
        this.definition = definition;
    }

    @Override
    public void init(TbActorCtx ctx) throws TbActorException {
        super.init(ctx);
        try {
            node = services.getRuleNodeFactory().create(definition);
        } catch (RuntimeException e) {
            throw new TbActorException("Cannot create rule node " + id, e);
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
        List<CompletableFuture<RuleNodeResult>> results = new ArrayList<>(msgs.size());
        boolean allDone = true;
        for (TbMsg tbMsg : msgs) {
            CompletableFuture<RuleNodeResult> result;
            try {
                result = node.onMsgAsync(tbMsg);
            } catch (Exception | StackOverflowError e) {
                result = CompletableFuture.failedFuture(e);
            }
            results.add(result);
            allDone &= result.isDone();
        }
        if (allDone) {
            chain.tell(outputs(msgs, results));
        } else {
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                    .whenComplete((ignored, error) -> chain.tell(outputs(msgs, results)));
        }
    }

    private RuleNodeOutputMsg outputs(List<TbMsg> msgs, List<CompletableFuture<RuleNodeResult>> results) {
        List<RuleNodeOutputMsg.Output> outputs = new ArrayList<>(msgs.size());
        for (int i = 0; i < msgs.size(); i++) {
            TbMsg tbMsg = msgs.get(i);
            RuleNodeResult output;
            Throwable cause = null;
            try {
                output = done(tbMsg, results.get(i).join());
            } catch (CompletionException | CancellationException e) {
                cause = unwrap(e);
                output = failed(tbMsg, cause);
            }
            outputs.add(new RuleNodeOutputMsg.Output(output.msg(), output.relations(), cause));
        }
        return new RuleNodeOutputMsg(definition.id(), outputs);
    }

    private static RuleNodeResult done(TbMsg msg, RuleNodeResult result) {
        return result != null ? result : new RuleNodeResult(msg, List.of());
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private RuleNodeResult failed(TbMsg msg, Throwable e) {
        services.getStats().nodeFailure();
        if (log.isDebugEnabled()) {
            log.debug("[{}] node failed on message {}", id, msg.id(), e);
        }
        String error = e.getClass().getSimpleName() + ": " + reason(e);
        return RuleNodeResult.of(msg.withMetadata("error", error), Relations.FAILURE);
    }

    /**
     * The reason a sender may read (it reaches the device API's 500): for a database failure the database's own
     * message, without the SQL that Spring's message carries.
     */
    private static String reason(Throwable e) {
        if (e instanceof DataAccessException dataAccess) {
            String message = String.valueOf(dataAccess.getMostSpecificCause().getMessage());
            int sql = message.indexOf("; SQL statement:");
            return sql >= 0 ? message.substring(0, sql) : message;
        }
        return e.getMessage();
    }

    @Override
    public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
        return ProcessFailureStrategy.resume();
    }
}
