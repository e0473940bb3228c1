package io.tbactors.rule.actors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.rule.RuleEngineContext;
import io.tbactors.rule.TbMsg;
import io.tbactors.rule.actors.msg.ReloadRuleChainMsg;
import io.tbactors.rule.actors.msg.RetireRuleNodeMsg;
import io.tbactors.rule.actors.msg.RuleNodeInputMsg;
import io.tbactors.rule.actors.msg.RuleNodeOutputMsg;
import io.tbactors.rule.actors.msg.ToRuleEngineMsg;
import io.tbactors.rule.actors.msg.ToRuleEnginePackMsg;
import io.tbactors.rule.chain.LoadedRuleChain;
import io.tbactors.rule.chain.RuleChainDefinition;
import io.tbactors.rule.chain.RuleConnection;
import io.tbactors.rule.chain.RuleNodeDefinition;
import io.tbactors.rule.node.Relations;
import lombok.extern.slf4j.Slf4j;

/**
 * A rule chain's actor: parent of one actor per node. Messages enter at the first node, a device request's readings
 * as one pack; each node's output for a pack comes back here and goes on along the connections for its relations,
 * one pack per next node (a filter that sends some readings on {@code True} and others on {@code False} splits the
 * pack). Routing only: the nodes do the work.
 *
 * <p>An update (a high-priority {@link ReloadRuleChainMsg}) reloads the chain and creates node actors for the new
 * version; the old ones get a normal-priority retire message, so they finish what was queued for them before
 * they stop. Their output is routed by the new chain's connections when their node still exists.
 */
@Slf4j
public class RuleChainActor extends AbstractTbActor {

    private final RuleEngineContext context;
    private final UUID tenantId;
    private final UUID ruleChainId;
    private long version = -1;
    private String firstNodeId;
    private Map<String, TbActorRef> nodes = Map.of();
    private Map<String, Map<String, List<String>>> routes = Map.of();

    /**
     * @param context the engine's parts
     * @param tenantId the chain's tenant (for log lines), or null
     * @param ruleChainId the chain
     */
    public RuleChainActor(RuleEngineContext context, UUID tenantId, UUID ruleChainId) {
        this.context = context;
        this.tenantId = tenantId;
        this.ruleChainId = ruleChainId;
    }

    @Override
    public void init(TbActorCtx ctx) throws TbActorException {
        super.init(ctx);
        try {
            load();
        } catch (RuntimeException e) {
            throw new TbActorException("Cannot start rule chain " + ruleChainId, e);
        }
    }

    @Override
    public boolean process(TbActorMsg msg) {
        if (msg instanceof ToRuleEngineMsg input) {
            nodes.get(firstNodeId).tell(new RuleNodeInputMsg(List.of(input.msg())));
        } else if (msg instanceof ToRuleEnginePackMsg pack) {
            nodes.get(firstNodeId).tell(new RuleNodeInputMsg(pack.msgs()));
        } else if (msg instanceof RuleNodeOutputMsg output) {
            route(output);
        } else if (msg instanceof ReloadRuleChainMsg) {
            reload();
        } else {
            return false;
        }
        return true;
    }

    /**
     * Routes a node's pack: each message along the connections of its relations, the messages bound for the same
     * node gathered into one pack, in the order they came; a message whose relations lead nowhere ends its copy.
     * Every {@code routed} call happens here, after the packs are told, so a copy cannot end before its forks count.
     */
    private void route(RuleNodeOutputMsg output) {
        Map<String, List<String>> byRelation = routes.getOrDefault(output.nodeId(), Map.of());
        List<RuleNodeOutputMsg.Output> outputs = output.outputs();
        Map<String, List<TbMsg>> packs = new LinkedHashMap<>(4);
        int[] targets = new int[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            RuleNodeOutputMsg.Output result = outputs.get(i);
            TbMsg tbMsg = result.msg();
            // indexed loops and no capturing lambda: this runs for every message of every pack
            List<String> relations = result.relations();
            for (int r = 0; r < relations.size(); r++) {
                String relation = relations.get(r);
                List<String> next = byRelation.getOrDefault(relation, List.of());
                if (next.isEmpty() && Relations.FAILURE.equals(relation)) {
                    failedWithNoRoute(output.nodeId(), tbMsg, result.failure());
                }
                for (int n = 0; n < next.size(); n++) {
                    String nodeId = next.get(n);
                    List<TbMsg> pack = packs.get(nodeId);
                    if (pack == null) {
                        pack = new ArrayList<>(outputs.size());
                        packs.put(nodeId, pack);
                    }
                    pack.add(tbMsg);
                    targets[i]++;
                }
            }
        }
        packs.forEach((nodeId, pack) -> nodes.get(nodeId).tell(new RuleNodeInputMsg(pack)));
        for (int i = 0; i < outputs.size(); i++) {
            outputs.get(i).msg().tracker().routed(targets[i]);
        }
    }

    private void failedWithNoRoute(String nodeId, TbMsg tbMsg, Throwable failure) {
        tbMsg.tracker().markFailed("rule node '" + nodeId + "' failed: " + tbMsg.metadata().get("error"), failure);
        if (log.isDebugEnabled()) {
            log.debug("[{}] node '{}' failed with no Failure connection: {}", ruleChainId, nodeId, tbMsg.metadata().get("error"));
        }
    }

    private void reload() {
        Map<String, TbActorRef> previous = nodes;
        long previousVersion = version;
        try {
            load();
        } catch (RuntimeException e) {
            log.warn("[{}] Cannot reload rule chain; keeping version {}", ruleChainId, previousVersion, e);
            context.listener().chainReloadFailed(ruleChainId, e);
            return;
        }
        if (version == previousVersion) {
            return;
        }
        RetireRuleNodeMsg retire = new RetireRuleNodeMsg();
        previous.values().forEach(node -> node.tell(retire));
        log.info("[tenant {}] Rule chain {} updated from version {} to {}: {} node actor(s) re-created", tenantId, ruleChainId,
                previousVersion, version, nodes.size());
    }

    private void load() {
        LoadedRuleChain chain = context.chains().findById(ruleChainId)
                .orElseThrow(() -> new IllegalStateException("Rule chain " + ruleChainId + " does not exist"));
        long chainVersion = chain.version();
        if (chainVersion == version) {
            return;
        }
        RuleChainDefinition definition = chain.definition();
        Map<String, TbActorRef> newNodes = new HashMap<>();
        for (RuleNodeDefinition node : definition.nodes()) {
            if (node.debugMode()) {
                // as ThingsBoard's debugMode: on from the file; an operator's later switch still wins
                context.stats().node(ruleChainId, node.id(), node.type()).setDebug(true);
            }
            TbActorId id = RuleEngineActorIds.ruleNode(ruleChainId, chainVersion, node.id());
            newNodes.put(node.id(), ctx.getOrCreateChildActor(id, context::dispatcher,
                    () -> TbActorCreator.of(id, () -> new RuleNodeActor(context, ruleChainId, id, node))));
        }
        Map<String, Map<String, List<String>>> newRoutes = new HashMap<>();
        for (RuleConnection connection : definition.connections()) {
            newRoutes.computeIfAbsent(connection.from(), k -> new HashMap<>())
                    .computeIfAbsent(connection.relation(), k -> new ArrayList<>())
                    .add(connection.to());
        }
        nodes = newNodes;
        routes = newRoutes;
        firstNodeId = definition.firstNodeId();
        version = chainVersion;
    }
}
