package io.tbactors.rule;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorSystem;
import io.tbactors.rule.actors.RuleChainActor;
import io.tbactors.rule.actors.RuleEngineActorIds;
import io.tbactors.rule.actors.msg.ReloadRuleChainMsg;
import io.tbactors.rule.actors.msg.ToRuleEngineMsg;

/**
 * Runs chains as root actors of an actor system: one actor per chain, made on its first message, one per node
 * under it. For an application without tenants; one that keeps ThingsBoard's tenant model makes
 * {@link RuleChainActor}s under its tenant actors instead, with the same {@link RuleEngineContext}.
 */
public final class RuleEngine {

    private final TbActorSystem actorSystem;
    private final RuleEngineContext context;

    /**
     * @param actorSystem where the chain actors live; it has the context's dispatcher
     * @param context the engine's parts
     */
    public RuleEngine(TbActorSystem actorSystem, RuleEngineContext context) {
        this.actorSystem = actorSystem;
        this.context = context;
    }

    /** @return the engine's parts */
    public RuleEngineContext getContext() {
        return context;
    }

    /**
     * Sends a message through a chain.
     *
     * @param chainId the chain
     * @param type the message type, see {@link TbMsgType}
     * @param originatorId the entity it is about
     * @param data key to value (Boolean, Long, Double, String, maps and lists of them)
     * @param metadata string key-value pairs
     * @return completes when every copy of the message has gone through the chain; exceptionally with a
     *     {@link RuleChainFailureException} when a node failed with no {@code Failure} connection, a
     *     {@link MessageNotAcceptedException} when an actor on its way stopped, or an {@link IllegalArgumentException}
     *     when there is no such chain
     */
    public CompletableFuture<Void> process(UUID chainId, String type, UUID originatorId, Map<String, Object> data,
                                           Map<String, String> metadata) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        TbMsg msg = new TbMsg(UUID.randomUUID(), type, null, originatorId, System.currentTimeMillis(), TbMsgData.frozenValues(data),
                Map.copyOf(metadata), new TbMsgTracker(context.listener(), new MsgPackCallback(1, done)));
        process(chainId, msg);
        return done;
    }

    /**
     * Sends a message, built by the caller with its own tracker and callback, through a chain.
     *
     * @param chainId the chain
     * @param msg the message
     */
    public void process(UUID chainId, TbMsg msg) {
        if (context.chains().findById(chainId).isEmpty()) {
            msg.tracker().markFailed("there is no rule chain " + chainId, new IllegalArgumentException("no rule chain " + chainId));
            msg.tracker().routed(0);
            return;
        }
        chainActor(chainId).tell(new ToRuleEngineMsg(msg));
    }

    /**
     * Applies a chain's change at once, without a restart: its actor reads it again and, when its version changed,
     * re-creates its nodes; messages already inside finish on the nodes they reached. A chain whose actor has not
     * started yet reads its current version when it does.
     *
     * @param chainId the chain that changed
     */
    public void reload(UUID chainId) {
        TbActorRef actor = actorSystem.getActor(RuleEngineActorIds.ruleChain(chainId));
        if (actor != null) {
            actor.tellWithHighPriority(new ReloadRuleChainMsg());
        }
    }

    private synchronized TbActorRef chainActor(UUID chainId) {
        TbActorId id = RuleEngineActorIds.ruleChain(chainId);
        TbActorRef existing = actorSystem.getActor(id);
        if (existing != null) {
            return existing;
        }
        return actorSystem.createRootActor(context.dispatcher(), TbActorCreator.of(id, () -> new RuleChainActor(context, null, chainId)));
    }
}
