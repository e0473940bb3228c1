package io.tbactors.sample.iot.device;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.repository.ListCrudRepository;

/**
 * Devices in the database.
 */
public interface DeviceRepository extends ListCrudRepository<Device, UUID> {

    /**
     * @param accessToken the token
     * @return the device with that token
     */
    Optional<Device> findByAccessToken(String accessToken);

    /**
     * @param tenantId the tenant
     * @return the tenant's device with that name
     */
    Optional<Device> findByTenantIdAndName(UUID tenantId, String name);

    /**
     * @param tenantId the tenant
     * @return the tenant's devices, oldest first
     */
    List<Device> findAllByTenantIdOrderByCreatedTimeAsc(UUID tenantId);
}
