package io.tbactors.rule.chain;

import java.util.Optional;
import java.util.UUID;

/**
 * Where the chain actors read their chains: the repository an application implements over its own storage (a
 * table, a REST-edited store), or {@link ResourceRuleChainSource} for chain files. A chain actor reads its chain
 * when it starts and again on each {@link io.tbactors.rule.RuleEngine#reload reload}; a chain whose version did not
 * change keeps its node actors.
 */
public interface RuleChainSource {

    /**
     * @param chainId the chain
     * @return its current version, or empty when there is no such chain
     */
    Optional<LoadedRuleChain> findById(UUID chainId);
}
