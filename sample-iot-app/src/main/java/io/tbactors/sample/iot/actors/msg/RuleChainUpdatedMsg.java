package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * A rule chain was created or updated: its actor reloads it and re-creates its node actors. Travels with high
 * priority, so messages that arrive after the update see the new chain.
 *
 * @param tenantId the tenant
 * @param ruleChainId the chain
 */
public record RuleChainUpdatedMsg(UUID tenantId, UUID ruleChainId) implements TenantAwareMsg {

    @Override
    public boolean highPriority() {
        return true;
    }
}
