package io.tbactors.sample.iot.storage;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tbactors.sample.iot.device.DeviceService;
import io.tbactors.sample.iot.web.ApiException;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Management API for a device's stored data: latest telemetry, telemetry history, attributes.
 */
@RestController
@RequestMapping("/api/devices/{id}")
@RequiredArgsConstructor
public class TelemetryController {

    private static final int MAX_LIMIT = 10_000;

    private final DeviceService deviceService;
    private final TimeseriesDao timeseriesDao;
    private final AttributesDao attributesDao;

    /**
     * @param id the device
     * @param keys comma-separated keys, or absent for all
     * @return key to {@code {"ts", "value"}}
     */
    @GetMapping("/telemetry/latest")
    public Map<String, TsValue> latest(@PathVariable UUID id, @RequestParam(required = false) List<String> keys) {
        deviceService.getById(id);
        return timeseriesDao.findLatest(id, keys);
    }

    /**
     * @param id the device
     * @param keys comma-separated keys, or absent for every key the device has
     * @param startTs first time included (epoch ms), default 0
     * @param endTs last time included (epoch ms), default no limit
     * @param limit most values per key, oldest first, default 1000, at most 10000
     * @return key to a list of {@code {"ts", "value"}} in ascending time
     */
    @GetMapping("/telemetry")
    public Map<String, List<TsValue>> history(@PathVariable UUID id, @RequestParam(required = false) List<String> keys,
                                              @RequestParam(defaultValue = "0") long startTs,
                                              @RequestParam(defaultValue = "" + Long.MAX_VALUE) long endTs,
                                              @RequestParam(defaultValue = "1000") int limit) {
        if (startTs > endTs) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "startTs (" + startTs + ") must not be after endTs (" + endTs + ")");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new ApiException(HttpStatus.BAD_REQUEST, "limit must be from 1 to " + MAX_LIMIT + ", got " + limit);
        }
        deviceService.getById(id);
        return timeseriesDao.findHistory(id, keys, startTs, endTs, limit);
    }

    /**
     * @param id the device
     * @return key to {@code {"ts", "value"}}, where ts is the last update
     */
    @GetMapping("/attributes")
    public Map<String, TsValue> attributes(@PathVariable UUID id) {
        deviceService.getById(id);
        return attributesDao.findAll(id);
    }
}
