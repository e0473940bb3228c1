package io.tbactors.kafka.codec;

import java.util.Objects;

/**
 * A message as it crosses the wire.
 *
 * @param type the type name the receiving codec decodes by
 * @param payload the message's bytes
 */
public record TbEncodedMsg(String type, byte[] payload) {

    /**
     * @param type the type name the receiving codec decodes by; not null
     * @param payload the message's bytes; not null
     */
    public TbEncodedMsg {
        Objects.requireNonNull(type, "type must not be null");
        Objects.requireNonNull(payload, "payload must not be null");
    }
}
