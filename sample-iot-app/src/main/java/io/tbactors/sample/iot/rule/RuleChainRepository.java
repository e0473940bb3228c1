package io.tbactors.sample.iot.rule;

import java.util.List;
import java.util.UUID;

import org.springframework.data.repository.ListCrudRepository;

/**
 * Rule chains in the database.
 */
public interface RuleChainRepository extends ListCrudRepository<RuleChain, UUID> {

    /**
     * @param tenantId the tenant
     * @return its chains, oldest first
     */
    List<RuleChain> findAllByTenantIdOrderByCreatedTimeAsc(UUID tenantId);
}
