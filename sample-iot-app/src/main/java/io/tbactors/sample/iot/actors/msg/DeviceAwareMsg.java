package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

/**
 * A message for one device's actor: the application actor routes it to the tenant's actor, which creates the
 * device's actor on first use and hands it over.
 */
public interface DeviceAwareMsg extends TenantAwareMsg {

    /** @return the device whose actor gets the message */
    UUID deviceId();
}
