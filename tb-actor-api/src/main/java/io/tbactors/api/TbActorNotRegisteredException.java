package io.tbactors.api;

/**
 * Thrown when a message is told to, or a child is created under, an actor id that is not registered.
 */
public class TbActorNotRegisteredException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient TbActorId target;

    /**
     * @param target the id that is not registered
     * @param message what was attempted
     */
    public TbActorNotRegisteredException(TbActorId target, String message) {
        super(message);
        this.target = target;
    }

    /** @return the id that is not registered */
    public TbActorId getTarget() {
        return target;
    }
}
