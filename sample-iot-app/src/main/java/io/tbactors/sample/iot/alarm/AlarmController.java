package io.tbactors.sample.iot.alarm;

import java.util.List;
import java.util.UUID;

import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.tenant.DefaultTenant;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Management API for alarms.
 */
@RestController
@RequestMapping("/api/alarms")
@RequiredArgsConstructor
public class AlarmController {

    private final AlarmService alarmService;
    private final DeviceService deviceService;

    /**
     * An alarm as the API shows it.
     *
     * @param deviceId the device
     * @param type the alarm type
     * @param status active or cleared
     * @param startTs when it was raised
     * @param endTs the last time its condition held
     * @param clearTs when it was cleared, or null
     */
    public record AlarmView(UUID id, UUID deviceId, String type, AlarmSeverity severity, AlarmStatus status, long startTs,
                            long endTs, Long clearTs) {

        static AlarmView of(Alarm alarm) {
            return new AlarmView(alarm.id(), alarm.deviceId(), alarm.type(), alarm.severity(), alarm.status(), alarm.startTs(),
                    alarm.endTs(), alarm.clearTs());
        }
    }

    /**
     * @param deviceId a device (404 when it does not exist), or absent for all
     * @param status {@code ACTIVE} or {@code CLEARED}, or absent for both
     * @return the alarms, newest first
     */
    @GetMapping
    public List<AlarmView> list(@RequestParam(required = false) UUID deviceId, @RequestParam(required = false) AlarmStatus status) {
        if (deviceId != null) {
            deviceService.getById(deviceId);
        }
        return alarmService.find(DefaultTenant.ID, deviceId, status).stream().map(AlarmView::of).toList();
    }
}
