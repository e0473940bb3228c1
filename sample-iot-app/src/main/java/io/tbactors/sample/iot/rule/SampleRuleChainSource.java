package io.tbactors.sample.iot.rule;

import java.util.Optional;
import java.util.UUID;

import io.tbactors.rule.chain.LoadedRuleChain;
import io.tbactors.rule.chain.RuleChainSource;
import org.springframework.stereotype.Component;

/**
 * The rule engine reads the sample's chains from its table, through the {@code ruleChains} cache that every node
 * evicts before it tells a chain actor to reload.
 */
@Component
public class SampleRuleChainSource implements RuleChainSource {

    private final RuleChainService ruleChainService;

    /** @param ruleChainService the stored chains */
    public SampleRuleChainSource(RuleChainService ruleChainService) {
        this.ruleChainService = ruleChainService;
    }

    @Override
    public Optional<LoadedRuleChain> findById(UUID chainId) {
        return ruleChainService.findById(chainId).map(chain -> new LoadedRuleChain(chain.id(),
                chain.version() == null ? 0 : chain.version(), ruleChainService.definitionOf(chain)));
    }
}
