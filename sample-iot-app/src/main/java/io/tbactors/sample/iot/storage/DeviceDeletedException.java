package io.tbactors.sample.iot.storage;

import java.util.UUID;

/**
 * A row was not stored because its device was deleted while the row waited in a write queue (the device's data
 * went with it, so the row has nowhere to go). Only that device's saves fail; the rest of the batch is committed.
 */
public class DeviceDeletedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient UUID deviceId;

    /** @param deviceId the deleted device */
    public DeviceDeletedException(UUID deviceId) {
        super("device " + deviceId + " was deleted before the reading was stored");
        this.deviceId = deviceId;
    }

    /** @return the deleted device */
    public UUID getDeviceId() {
        return deviceId;
    }
}
