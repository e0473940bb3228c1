package io.tbactors.kafka.codec;

import io.tbactors.api.TbActorMsg;

/**
 * Turns messages into bytes for a Kafka record and back. The cluster uses one codec, a bean of this type; without
 * one it uses {@link JsonTbActorMsgCodec} over the types listed under {@code tb.actors.cluster.message-types}.
 *
 * <p>The type name travels beside the bytes (as a record header), so a codec can decode without trusting class
 * names found on the wire.
 */
public interface TbActorMsgCodec {

    /**
     * Checks, cheaply, that messages of a type can cross the wire. Called at every send, also when the message is
     * delivered locally, so that a type that cannot be encoded fails on a single node as it would on many.
     *
     * @param type the message's class
     * @throws TbActorMsgEncodingException when the type cannot be encoded, with what to do about it
     */
    void checkEncodable(Class<? extends TbActorMsg> type);

    /**
     * @param msg the message
     * @return its type name and bytes
     * @throws TbActorMsgEncodingException when it cannot be encoded
     */
    TbEncodedMsg encode(TbActorMsg msg);

    /**
     * @param type the type name written by {@link #encode}
     * @param payload the bytes written by {@link #encode}
     * @return the message
     * @throws TbActorMsgDecodingException when the type is unknown or the bytes are not a message of that type
     */
    TbActorMsg decode(String type, byte[] payload);
}
