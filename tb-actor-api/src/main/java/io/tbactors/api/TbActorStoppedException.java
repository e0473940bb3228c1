package io.tbactors.api;

/**
 * Completes a request ({@code ask}) whose target stopped, was never registered, or refused the request.
 */
public class TbActorStoppedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient TbActorId target;
    private final TbActorStopReason reason;

    /**
     * @param target the actor the request was for
     * @param reason why it will not answer
     * @param message what happened
     */
    public TbActorStoppedException(TbActorId target, TbActorStopReason reason, String message) {
        super(message);
        this.target = target;
        this.reason = reason;
    }

    /** @return the actor the request was for */
    public TbActorId getTarget() {
        return target;
    }

    /** @return why it will not answer */
    public TbActorStopReason getReason() {
        return reason;
    }
}
