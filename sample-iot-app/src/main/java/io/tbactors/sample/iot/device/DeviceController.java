package io.tbactors.sample.iot.device;

import java.util.List;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Management API for devices.
 */
@RestController
@RequestMapping("/api/devices")
@RequiredArgsConstructor
public class DeviceController {

    private final DeviceService deviceService;

    /**
     * Body of a device creation.
     *
     * @param name the name, unique in the tenant
     * @param type the type; {@code default} when absent
     */
    public record CreateDeviceRequest(@NotBlank @Size(max = 255) String name, @Size(max = 255) String type) {
    }

    /**
     * A device as the API shows it.
     *
     * @param accessToken the token for the device API
     * @param createdTime creation time in epoch milliseconds
     */
    public record DeviceView(UUID id, String name, String type, String accessToken, long createdTime) {

        static DeviceView of(Device device) {
            return new DeviceView(device.id(), device.name(), device.type(), device.accessToken(), device.createdTime());
        }
    }

    /**
     * @param request name and type
     * @return 201 with the device and its access token
     */
    @PostMapping
    public ResponseEntity<DeviceView> create(@Valid @RequestBody CreateDeviceRequest request) {
        String type = request.type() == null || request.type().isBlank() ? "default" : request.type();
        Device device = deviceService.create(request.name().trim(), type);
        return ResponseEntity.status(HttpStatus.CREATED).body(DeviceView.of(device));
    }

    /** @return all devices, oldest first */
    @GetMapping
    public List<DeviceView> list() {
        return deviceService.findAll().stream().map(DeviceView::of).toList();
    }

    /**
     * @param id the device's id
     * @return the device
     */
    @GetMapping("/{id}")
    public DeviceView get(@PathVariable UUID id) {
        return DeviceView.of(deviceService.getById(id));
    }

    /**
     * Deletes a device, its data and alarms, and stops its actor.
     *
     * @param id the device's id
     * @return 204
     */
    @DeleteMapping("/{id}")
    public ResponseEntity<Void> delete(@PathVariable UUID id) {
        deviceService.delete(id);
        return ResponseEntity.noContent().build();
    }
}
