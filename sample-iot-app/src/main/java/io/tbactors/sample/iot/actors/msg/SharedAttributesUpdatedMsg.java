package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * Shared attributes of a device were set (and stored): its actor pushes them to its sessions subscribed to attribute
 * updates.
 *
 * @param tenantId the device's tenant
 * @param deviceId the device
 * @param changed key to new value, a JSON object
 */
public record SharedAttributesUpdatedMsg(UUID tenantId, UUID deviceId, JsonNode changed) implements DeviceAwareMsg {
}
