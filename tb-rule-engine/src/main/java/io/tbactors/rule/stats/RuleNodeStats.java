package io.tbactors.rule.stats;

import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every node's {@link NodeStats}, by chain and node id. A node keeps its figures across versions of its chain.
 */
public final class RuleNodeStats {

    /** How many debug events a node keeps unless told otherwise. */
    public static final int DEFAULT_DEBUG_CAPACITY = 20;

    private final Map<UUID, Map<String, NodeStats>> chains = new ConcurrentHashMap<>();
    private final int debugCapacity;
    private final RuleNodeMeters meters;
    private volatile boolean debugByDefault;

    /** Statistics without meters, keeping {@value #DEFAULT_DEBUG_CAPACITY} debug events a node. */
    public RuleNodeStats() {
        this(DEFAULT_DEBUG_CAPACITY, RuleNodeMeters.NONE);
    }

    /**
     * @param debugCapacity how many messages a node in debug mode keeps, at least 1
     * @param meters where the figures also go
     */
    public RuleNodeStats(int debugCapacity, RuleNodeMeters meters) {
        if (debugCapacity < 1) {
            throw new IllegalArgumentException("tb.rule-engine.debug-capacity must be at least 1, got " + debugCapacity);
        }
        this.debugCapacity = debugCapacity;
        this.meters = meters;
    }

    /**
     * @param chainId the chain
     * @param nodeId the node's id
     * @param type the node type
     * @return the node's figures, made on first use
     */
    public NodeStats node(UUID chainId, String nodeId, String type) {
        return chains.computeIfAbsent(chainId, id -> new ConcurrentHashMap<>()).computeIfAbsent(nodeId, id -> {
            NodeStats stats = new NodeStats(type, debugCapacity, meters.forNode(chainId, nodeId, type));
            stats.setDebug(debugByDefault);
            return stats;
        });
    }

    /**
     * @param enabled whether nodes seen from now on start in debug mode (a chain under test traces every node)
     */
    public void setDebugByDefault(boolean enabled) {
        debugByDefault = enabled;
    }

    /**
     * Turns a node's debug mode on or off.
     *
     * @param chainId the chain
     * @param nodeId the node
     * @param enabled whether to keep its last messages
     * @return whether there is such a node (it has run)
     */
    public boolean setDebug(UUID chainId, String nodeId, boolean enabled) {
        NodeStats stats = chains.getOrDefault(chainId, Map.of()).get(nodeId);
        if (stats == null) {
            return false;
        }
        stats.setDebug(enabled);
        return true;
    }

    /** @return every chain's nodes' figures, sorted by node id */
    public Map<UUID, Map<String, NodeStats>> snapshot() {
        Map<UUID, Map<String, NodeStats>> result = new TreeMap<>();
        chains.forEach((chain, nodes) -> result.put(chain, new TreeMap<>(nodes)));
        return result;
    }

    /**
     * @param chainId a chain
     * @return its nodes' figures, sorted by node id; empty when none has run
     */
    public Map<String, NodeStats> chain(UUID chainId) {
        return new TreeMap<>(chains.getOrDefault(chainId, Map.of()));
    }
}
