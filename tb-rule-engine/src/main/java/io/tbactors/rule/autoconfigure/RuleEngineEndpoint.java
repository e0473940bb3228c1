package io.tbactors.rule.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tbactors.rule.stats.DebugEvent;
import io.tbactors.rule.stats.NodeStats;
import io.tbactors.rule.stats.RuleNodeStats;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/rulechains}: every node's figures (in, out by relation, failures, mean processing time) by chain;
 * {@code /actuator/rulechains/{chain}} adds each node's debug events; a {@code POST} to
 * {@code /actuator/rulechains/{chain}/{node}} with {@code {"debug": true}} turns a node's debug mode on or off.
 */
@Endpoint(id = "rulechains", defaultAccess = Access.READ_ONLY)
public class RuleEngineEndpoint {

    private final RuleNodeStats stats;

    /** @param stats the figures */
    public RuleEngineEndpoint(RuleNodeStats stats) {
        this.stats = stats;
    }

    /**
     * One node as the endpoint shows it.
     *
     * @param type the node type
     * @param in messages in
     * @param out messages out by relation
     * @param failures messages it failed on
     * @param meanProcessingMillis mean time from call to callback
     * @param debug whether debug mode is on
     * @param debugEvents its last messages, with the chain's detail only
     */
    public record NodeView(String type, long in, Map<String, Long> out, long failures, double meanProcessingMillis, boolean debug,
                           List<DebugEvent> debugEvents) {
    }

    /** @return every chain's nodes, without debug events */
    @ReadOperation
    public Map<UUID, Map<String, NodeView>> chains() {
        Map<UUID, Map<String, NodeView>> result = new LinkedHashMap<>();
        stats.snapshot().forEach((chain, nodes) -> result.put(chain, view(nodes, false)));
        return result;
    }

    /**
     * @param chain a chain's id
     * @return its nodes, with their debug events
     */
    @ReadOperation
    public Map<String, NodeView> chain(@Selector UUID chain) {
        return view(stats.chain(chain), true);
    }

    /**
     * @param chain a chain's id
     * @param node a node's id
     * @param debug whether to keep its last messages
     * @return whether there is such a node
     */
    @WriteOperation
    public boolean debug(@Selector UUID chain, @Selector String node, boolean debug) {
        return stats.setDebug(chain, node, debug);
    }

    private static Map<String, NodeView> view(Map<String, NodeStats> nodes, boolean withDebugEvents) {
        Map<String, NodeView> result = new LinkedHashMap<>();
        nodes.forEach((id, node) -> result.put(id, new NodeView(node.getType(), node.getIn(), node.getOut(), node.getFailures(),
                node.getMeanProcessingMillis(), node.isDebug(), withDebugEvents ? node.getDebugEvents() : List.of())));
        return result;
    }
}
