package io.tbactors.sample.iot.actors;

import java.util.UUID;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbEntityActorId;
import io.tbactors.api.TbStringActorId;
import io.tbactors.rule.actors.RuleEngineActorIds;

/**
 * The actor ids of the sample: entity ids for tenants, devices and rule chains, a string id for the application
 * actor and for rule nodes (a node's id includes its chain's version, so an update creates fresh node actors).
 */
public final class IotActorIds {

    /** Entity type of tenant actors. */
    public static final String TENANT = "TENANT";
    /** Entity type of device actors. */
    public static final String DEVICE = "DEVICE";
    /** Entity type of rule chain actors. */
    public static final String RULE_CHAIN = RuleEngineActorIds.RULE_CHAIN;
    /** The application (root) actor. */
    public static final TbActorId APP = new TbStringActorId("APP");

    private IotActorIds() {
    }

    /**
     * @param tenantId a tenant
     * @return its actor's id
     */
    public static TbActorId tenant(UUID tenantId) {
        return new TbEntityActorId(TENANT, tenantId);
    }

    /**
     * @param deviceId a device
     * @return its actor's id
     */
    public static TbActorId device(UUID deviceId) {
        return new TbEntityActorId(DEVICE, deviceId);
    }

    /**
     * @param ruleChainId a rule chain
     * @return its actor's id
     */
    public static TbActorId ruleChain(UUID ruleChainId) {
        return RuleEngineActorIds.ruleChain(ruleChainId);
    }

    /**
     * @param ruleChainId the chain
     * @param version the chain's version
     * @param nodeId the node's id in the chain
     * @return the node actor's id, {@code RULE_NODE|chain|vN|node}
     */
    public static TbActorId ruleNode(UUID ruleChainId, long version, String nodeId) {
        return RuleEngineActorIds.ruleNode(ruleChainId, version, nodeId);
    }
}
