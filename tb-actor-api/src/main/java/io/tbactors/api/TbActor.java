package io.tbactors.api;

/**
 * An actor: state that is touched by one message at a time, on a dispatcher thread.
 */
public interface TbActor {

    /**
     * Processes one message.
     *
     * @param msg the message
     * @return whether the message was handled; unhandled messages are logged by the runtime
     */
    boolean process(TbActorMsg msg);

    /** @return a reference to this actor, usable from other actors */
    TbActorRef getActorRef();

    /**
     * Called once on the actor's dispatcher before its first message.
     *
     * @param ctx the actor's context
     * @throws TbActorException when the actor cannot start; {@link #onInitFailure} decides what follows
     */
    default void init(TbActorCtx ctx) throws TbActorException {
    }

    /**
     * Called once on the actor's dispatcher when it stops.
     *
     * @param stopReason why it stops
     * @param cause the init failure that stopped it, or null
     * @throws TbActorException when cleaning up fails; it is logged, the actor is removed anyway
     */
    default void destroy(TbActorStopReason stopReason, Throwable cause) throws TbActorException {
    }

    /**
     * Decides what to do after a failed init. The default retries with a delay of 5 seconds times the attempt.
     *
     * @param attempt the attempt that failed, from 1
     * @param t the failure
     * @return the strategy to apply
     */
    default InitFailureStrategy onInitFailure(int attempt, Throwable t) {
        return InitFailureStrategy.retryWithDelay(5000L * attempt);
    }

    /**
     * Decides what to do after {@code process} threw. The default stops on an {@link Error} and resumes otherwise.
     *
     * @param msg the message that failed
     * @param t the failure
     * @return the strategy to apply
     */
    default ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
        if (t instanceof Error) {
            return ProcessFailureStrategy.stop();
        } else {
            return ProcessFailureStrategy.resume();
        }
    }
}
