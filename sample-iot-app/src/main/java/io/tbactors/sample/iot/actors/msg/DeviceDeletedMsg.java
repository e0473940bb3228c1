package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * A device was deleted: its actor stops.
 *
 * @param tenantId the tenant
 * @param deviceId the device
 */
public record DeviceDeletedMsg(UUID tenantId, UUID deviceId) implements TenantAwareMsg {

    @Override
    public boolean highPriority() {
        return true;
    }
}
