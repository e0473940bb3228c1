package io.tbactors.sample.iot.actors;

import java.util.ArrayList;
import java.util.HashMap;
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
import io.tbactors.sample.iot.actors.msg.RetireRuleNodeMsg;
import io.tbactors.sample.iot.actors.msg.RuleChainUpdatedMsg;
import io.tbactors.sample.iot.actors.msg.RuleNodeInputMsg;
import io.tbactors.sample.iot.actors.msg.RuleNodeOutputMsg;
import io.tbactors.sample.iot.actors.msg.ToRuleEngineMsg;
import io.tbactors.sample.iot.actors.msg.ToRuleEnginePackMsg;
import io.tbactors.sample.iot.rule.RuleChain;
import io.tbactors.sample.iot.rule.RuleChainDefinition;
import io.tbactors.sample.iot.rule.RuleConnection;
import io.tbactors.sample.iot.rule.RuleNodeDefinition;
import io.tbactors.sample.iot.rule.TbMsg;
import io.tbactors.sample.iot.rule.node.Relations;
import lombok.extern.slf4j.Slf4j;

/**
 * A rule chain's actor: parent of one actor per node. Messages enter at the first node; each node's output comes
 * back here and goes on along the connections for its relations. Routing only: the nodes do the work.
 *
 * <p>An update (a high-priority {@link RuleChainUpdatedMsg}) reloads the chain and creates node actors for the new
 * version; the old ones get a normal-priority retire message, so they finish what was queued for them before
 * they stop. Their output is routed by the new chain's connections when their node still exists.
 */
@Slf4j
public class RuleChainActor extends AbstractTbActor {

    private final IotActorServices services;
    private final UUID tenantId;
    private final UUID ruleChainId;
    private long version = -1;
    private String firstNodeId;
    private Map<String, TbActorRef> nodes = Map.of();
    private Map<String, Map<String, List<String>>> routes = Map.of();

    RuleChainActor(IotActorServices services, UUID tenantId, UUID ruleChainId) {
        this.services = services;
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
            nodes.get(firstNodeId).tell(new RuleNodeInputMsg(input.msg()));
        } else if (msg instanceof ToRuleEnginePackMsg pack) {
            TbActorRef first = nodes.get(firstNodeId);
            pack.msgs().forEach(tbMsg -> first.tell(new RuleNodeInputMsg(tbMsg)));
        } else if (msg instanceof RuleNodeOutputMsg output) {
            route(output);
        } else if (msg instanceof RuleChainUpdatedMsg) {
            reload();
        } else {
            return false;
        }
        return true;
    }

    private void route(RuleNodeOutputMsg output) {
        TbMsg tbMsg = output.msg();
        Map<String, List<String>> byRelation = routes.getOrDefault(output.nodeId(), Map.of());
        int targets = 0;
        for (String relation : output.relations()) {
            List<String> next = byRelation.getOrDefault(relation, List.of());
            if (next.isEmpty() && Relations.FAILURE.equals(relation)) {
                tbMsg.tracker().markFailed("rule node '" + output.nodeId() + "' failed: " + tbMsg.metadata().get("error"),
                        output.failure());
                if (log.isDebugEnabled()) {
                    log.debug("[{}] node '{}' failed with no Failure connection: {}", ruleChainId, output.nodeId(),
                            tbMsg.metadata().get("error"));
                }
            }
            for (String nodeId : next) {
                nodes.get(nodeId).tell(new RuleNodeInputMsg(tbMsg));
                targets++;
            }
        }
        tbMsg.tracker().routed(targets);
    }

    private void reload() {
        Map<String, TbActorRef> previous = nodes;
        long previousVersion = version;
        try {
            load();
        } catch (RuntimeException e) {
            log.error("[{}] Cannot reload rule chain; keeping version {}", ruleChainId, previousVersion, e);
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
        RuleChain chain = services.getRuleChainService().findById(ruleChainId)
                .orElseThrow(() -> new IllegalStateException("Rule chain " + ruleChainId + " does not exist"));
        long chainVersion = chain.version() == null ? 0 : chain.version();
        if (chainVersion == version) {
            return;
        }
        RuleChainDefinition definition = services.getRuleChainService().definitionOf(chain);
        Map<String, TbActorRef> newNodes = new HashMap<>();
        for (RuleNodeDefinition node : definition.nodes()) {
            TbActorId id = IotActorIds.ruleNode(ruleChainId, chainVersion, node.id());
            newNodes.put(node.id(), ctx.getOrCreateChildActor(id, () -> IotDispatchers.RULE,
                    () -> TbActorCreator.of(id, () -> new RuleNodeActor(services, id, node))));
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
