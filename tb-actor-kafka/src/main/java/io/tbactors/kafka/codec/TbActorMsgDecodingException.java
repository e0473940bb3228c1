package io.tbactors.kafka.codec;

/** A record's content is not a message this node knows: the record is logged, counted and skipped. */
public class TbActorMsgDecodingException extends RuntimeException {

    /**
     * @param message what could not be decoded
     * @param cause the codec's failure, or null
     */
    public TbActorMsgDecodingException(String message, Throwable cause) {
        super(message, cause);
    }
}
