package io.tbactors.sample.iot.device;

import io.tbactors.api.TbActorMsg;

/**
 * A device's access token now means something else (the device was created or deleted): every node forgets what its
 * token cache holds for it, a cached "unknown token" included.
 *
 * @param accessToken the token
 */
public record DeviceTokenChangedMsg(String accessToken) implements TbActorMsg {

    /** Name of this type in the records, as registered under {@code tb.actors.cluster.message-types}. */
    public static final String TYPE = "device-token-changed";
}
