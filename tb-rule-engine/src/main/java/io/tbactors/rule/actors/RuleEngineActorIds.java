package io.tbactors.rule.actors;

import java.util.UUID;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.api.TbStringActorId;

/**
 * Actor ids of chains (entity ids) and nodes (a node's id includes its chain's version, so an update creates fresh
 * node actors while the old ones finish).
 */
public final class RuleEngineActorIds {

    /** Entity type of rule chain actors. */
    public static final String RULE_CHAIN = "RULE_CHAIN";

    private RuleEngineActorIds() {
    }

    /**
     * @param ruleChainId a rule chain
     * @return its actor's id
     */
    public static TbActorId ruleChain(UUID ruleChainId) {
        return new TbEntityActorId(RULE_CHAIN, ruleChainId);
    }

    /**
     * @param ruleChainId the chain
     * @param version the chain's version
     * @param nodeId the node's id in the chain
     * @return the node actor's id, {@code RULE_NODE|chain|vN|node}
     */
    public static TbActorId ruleNode(UUID ruleChainId, long version, String nodeId) {
        return new TbStringActorId("RULE_NODE|" + ruleChainId + "|v" + version + "|" + nodeId);
    }
}
