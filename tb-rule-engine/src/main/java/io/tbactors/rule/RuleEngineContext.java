package io.tbactors.rule;

import java.util.Objects;
import java.util.function.Function;

import io.tbactors.rule.chain.RuleChainSource;
import io.tbactors.rule.node.RuleNodeRegistry;
import io.tbactors.rule.stats.RuleNodeStats;

/**
 * What the chain and node actors use (actors are not beans): handed to each {@link io.tbactors.rule.actors.RuleChainActor}.
 *
 * @param chains where chains are read
 * @param nodes the node types
 * @param stats per-node figures and debug events
 * @param listener told how messages end
 * @param dispatcher the dispatcher of chain and node actors
 * @param failureReason the text of a node's failure that goes into metadata {@code error} and the chain's failure
 */
public record RuleEngineContext(RuleChainSource chains, RuleNodeRegistry nodes, RuleNodeStats stats, RuleEngineListener listener,
                                String dispatcher, Function<Throwable, String> failureReason) {

    /** Checks that the parts are there. */
    public RuleEngineContext {
        Objects.requireNonNull(chains, "chains");
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(dispatcher, "dispatcher");
        Objects.requireNonNull(failureReason, "failureReason");
    }

    /**
     * @param chains where chains are read
     * @param nodes the node types
     * @param dispatcher the dispatcher of chain and node actors
     * @return a context with fresh statistics, no listener and the exception's message as a failure's reason
     */
    public static RuleEngineContext of(RuleChainSource chains, RuleNodeRegistry nodes, String dispatcher) {
        return new RuleEngineContext(chains, nodes, new RuleNodeStats(), RuleEngineListener.NONE, dispatcher, Throwable::getMessage);
    }
}
