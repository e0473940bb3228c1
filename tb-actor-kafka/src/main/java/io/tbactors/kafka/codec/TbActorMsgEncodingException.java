package io.tbactors.kafka.codec;

/** A message cannot be sent across the cluster: its type is not known to the codec or its content cannot be written. */
public class TbActorMsgEncodingException extends IllegalArgumentException {

    /**
     * @param message what cannot be encoded and what to do about it
     * @param cause the codec's failure, or null
     */
    public TbActorMsgEncodingException(String message, Throwable cause) {
        super(message, cause);
    }
}
