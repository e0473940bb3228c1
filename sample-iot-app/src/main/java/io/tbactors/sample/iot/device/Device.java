package io.tbactors.sample.iot.device;

import java.util.UUID;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * A device: it posts telemetry and attributes with its access token.
 *
 * @param tenantId the tenant it belongs to
 * @param name the name, unique within the tenant
 * @param type a free-form type such as {@code thermostat}
 * @param accessToken the secret in the device API's paths, unique
 * @param createdTime creation time in epoch milliseconds
 * @param version optimistic-lock version; null before the first insert
 */
public record Device(@Id UUID id, UUID tenantId, String name, String type, String accessToken, long createdTime,
                     @Version Long version) {
}
