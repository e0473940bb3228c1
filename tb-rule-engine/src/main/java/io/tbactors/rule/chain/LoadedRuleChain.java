package io.tbactors.rule.chain;

import java.util.Objects;
import java.util.UUID;

/**
 * A chain as its actor runs it: a validated definition and the version it has in its store.
 *
 * @param id the chain's id
 * @param version increases with each change; the node actors of an older version retire
 * @param definition the validated definition (see {@link RuleChainValidator})
 */
public record LoadedRuleChain(UUID id, long version, RuleChainDefinition definition) {

    /** Checks that the parts are there. */
    public LoadedRuleChain {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(definition, "definition");
    }
}
