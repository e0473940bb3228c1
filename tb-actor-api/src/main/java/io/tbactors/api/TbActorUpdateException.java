package io.tbactors.api;

/**
 * Thrown from {@link TbActor#process} when applying an update failed and the actor cannot go on with its old
 * state: the actor is destroyed with {@link TbActorStopReason#INIT_FAILED} and stays registered until a
 * {@link TbActorUpdateMsg} told with high priority initialises it again (ThingsBoard's rule-node update failure).
 */
public class TbActorUpdateException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed
     * @param cause the underlying failure, may be null
     */
    public TbActorUpdateException(String message, Throwable cause) {
        super(message, cause);
    }
}
