package io.tbactors.sample.iot.rule;

import java.util.UUID;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * A stored rule chain; {@code configuration} is its {@link RuleChainDefinition} as JSON.
 *
 * @param tenantId the tenant
 * @param root whether the tenant's device messages enter this chain
 * @param configuration the definition as JSON
 * @param createdTime creation time, epoch milliseconds
 * @param updatedTime last update time, epoch milliseconds
 * @param version incremented by each update; node actors of an older version retire
 */
public record RuleChain(@Id UUID id, UUID tenantId, String name, boolean root, String configuration, long createdTime,
                        long updatedTime, @Version Long version) {
}
