package io.tbactors.sample.iot.alarm;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.data.repository.ListCrudRepository;

/**
 * Alarms in the database.
 */
public interface AlarmRepository extends ListCrudRepository<Alarm, UUID> {

    /**
     * @param deviceId the device
     * @param activeType the alarm type
     * @return the device's active alarm of that type
     */
    Optional<Alarm> findByDeviceIdAndActiveType(UUID deviceId, String activeType);

    /**
     * @param deviceId the device
     * @return its alarms, newest first
     */
    List<Alarm> findAllByDeviceIdOrderByStartTsDesc(UUID deviceId);

    /**
     * @param deviceId the device
     * @return its alarms with that status, newest first
     */
    List<Alarm> findAllByDeviceIdAndStatusOrderByStartTsDesc(UUID deviceId, AlarmStatus status);

    /**
     * @param tenantId the tenant
     * @return the tenant's alarms, newest first
     */
    List<Alarm> findAllByTenantIdOrderByStartTsDesc(UUID tenantId);

    /**
     * @param tenantId the tenant
     * @return the tenant's alarms with that status, newest first
     */
    List<Alarm> findAllByTenantIdAndStatusOrderByStartTsDesc(UUID tenantId, AlarmStatus status);

    /**
     * @return how many alarms have it
     */
    long countByStatus(AlarmStatus status);
}
