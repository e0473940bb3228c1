package io.tbactors.sample.iot.rule;

import java.util.Objects;

import io.tbactors.api.TbActorMsg;
import io.tbactors.sample.iot.actors.msg.RuleChainUpdatedMsg;
import io.tbactors.sample.iot.cluster.AdminChangeListener;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.stereotype.Component;

/** Drops an updated chain from this node's {@value RuleChainService#RULE_CHAINS} cache before its actor reloads it. */
@Component
class RuleChainCacheEviction implements AdminChangeListener {

    private final Cache ruleChains;

    RuleChainCacheEviction(CacheManager cacheManager) {
        this.ruleChains = Objects.requireNonNull(cacheManager.getCache(RuleChainService.RULE_CHAINS),
                "cache " + RuleChainService.RULE_CHAINS);
    }

    @Override
    public void onAdminChange(TbActorMsg change) {
        if (change instanceof RuleChainUpdatedMsg updated) {
            ruleChains.evict(updated.ruleChainId());
        }
    }
}
