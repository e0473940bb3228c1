package io.tbactors.sample.iot.alarm;

import java.util.UUID;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * An alarm raised on a device by a rule chain.
 *
 * @param tenantId the tenant
 * @param deviceId the device
 * @param type the alarm type, such as {@code High Temperature}
 * @param severity how bad it is
 * @param status active or cleared
 * @param startTs when it was raised, epoch milliseconds
 * @param endTs the last time its condition held
 * @param clearTs when it was cleared, or null
 * @param details the message data that raised or last updated it, as JSON
 * @param activeType the type while active, null once cleared: backs the one-active-alarm-per-type constraint
 * @param version optimistic-lock version; null before the first insert
 */
public record Alarm(@Id UUID id, UUID tenantId, UUID deviceId, String type, AlarmSeverity severity, AlarmStatus status,
                    long startTs, long endTs, Long clearTs, String details, String activeType, @Version Long version) {

    /**
     * @param newEndTs the last time the condition held
     * @return a copy with that end time
     */
    public Alarm withEndTs(long newEndTs) {
        return new Alarm(id, tenantId, deviceId, type, severity, status, startTs, newEndTs, clearTs, details, activeType, version);
    }
}
