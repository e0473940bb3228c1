package io.tbactors.api;

/**
 * A checked failure of an actor's {@code init} or {@code destroy}.
 */
public class TbActorException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed
     * @param cause the underlying failure, may be null
     */
    public TbActorException(String message, Throwable cause) {
        super(message, cause);
    }
}
