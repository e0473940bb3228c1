package io.tbactors.sample.iot.alarm;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import lombok.RequiredArgsConstructor;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.stereotype.Service;

/**
 * Raises, updates and clears alarms. At most one alarm of a type is active per device: the database enforces it
 * (see the {@code alarm_one_active_uq} constraint), so even two nodes racing cannot duplicate one.
 */
@Service
@RequiredArgsConstructor
public class AlarmService {

    private static final int MAX_ATTEMPTS = 3;

    private final AlarmRepository repository;

    /**
     * What raising did.
     *
     * @param alarm the active alarm
     * @param created whether it is new (false: an active one was updated)
     */
    public record RaiseResult(Alarm alarm, boolean created) {
    }

    /**
     * Raises an alarm, or updates the active one of that type (its severity, end time and details).
     *
     * @param tenantId the tenant
     * @param deviceId the device
     * @param type the alarm type
     * @param ts the time the condition held
     * @param details JSON details
     * @return the alarm and whether it was created
     */
    public RaiseResult raise(UUID tenantId, UUID deviceId, String type, AlarmSeverity severity, long ts, String details) {
        return retryOnConflict(() -> raiseOnce(tenantId, deviceId, type, severity, ts, details));
    }

    private RaiseResult raiseOnce(UUID tenantId, UUID deviceId, String type, AlarmSeverity severity, long ts, String details) {
        Optional<Alarm> active = repository.findByDeviceIdAndActiveType(deviceId, type);
        if (active.isPresent()) {
            return new RaiseResult(update(active.get(), severity, ts, details), false);
        }
        Alarm alarm = new Alarm(UUID.randomUUID(), tenantId, deviceId, type, severity, AlarmStatus.ACTIVE, ts, ts, null, details,
                type, null);
        try {
            return new RaiseResult(repository.save(alarm), true);
        } catch (DuplicateKeyException raisedMeanwhile) {
            Alarm existing = repository.findByDeviceIdAndActiveType(deviceId, type).orElseThrow(() -> raisedMeanwhile);
            return new RaiseResult(update(existing, severity, ts, details), false);
        }
    }

    private Alarm update(Alarm alarm, AlarmSeverity severity, long ts, String details) {
        return repository.save(new Alarm(alarm.id(), alarm.tenantId(), alarm.deviceId(), alarm.type(), severity, alarm.status(),
                alarm.startTs(), Math.max(ts, alarm.endTs()), null, details, alarm.activeType(), alarm.version()));
    }

    /**
     * Clears the device's active alarm of that type, if there is one and no reading newer than {@code ts} raised
     * or updated it (a late, older reading must not clear an alarm that a newer one keeps raised).
     *
     * @param deviceId the device
     * @param type the alarm type
     * @param ts the time of the reading that clears
     * @return the cleared alarm, or empty when none was active
     */
    public Optional<Alarm> clear(UUID deviceId, String type, long ts) {
        return retryOnConflict(() -> clearOnce(deviceId, type, ts));
    }

    private Optional<Alarm> clearOnce(UUID deviceId, String type, long ts) {
        return repository.findByDeviceIdAndActiveType(deviceId, type)
                .filter(alarm -> alarm.endTs() <= ts)
                .map(alarm -> repository.save(new Alarm(alarm.id(), alarm.tenantId(), alarm.deviceId(), alarm.type(),
                        alarm.severity(), AlarmStatus.CLEARED, alarm.startTs(), alarm.endTs(), ts, alarm.details(), null,
                        alarm.version())));
    }

    // two node actors may touch one alarm at once (during a chain update the old and new nodes both run):
    // the version check catches it, and the work is redone on the fresh row
    private static <T> T retryOnConflict(Supplier<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (OptimisticLockingFailureException e) {
                if (attempt >= MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /**
     * @param tenantId the tenant
     * @param deviceId a device, or null for all of the tenant's
     * @param status a status, or null for both
     * @return the alarms, newest first
     */
    public List<Alarm> find(UUID tenantId, UUID deviceId, AlarmStatus status) {
        if (deviceId != null) {
            return status == null ? repository.findAllByDeviceIdOrderByStartTsDesc(deviceId)
                    : repository.findAllByDeviceIdAndStatusOrderByStartTsDesc(deviceId, status);
        }
        return status == null ? repository.findAllByTenantIdOrderByStartTsDesc(tenantId)
                : repository.findAllByTenantIdAndStatusOrderByStartTsDesc(tenantId, status);
    }

    /** @return how many alarms are active */
    public long countActive() {
        return repository.countByStatus(AlarmStatus.ACTIVE);
    }
}
