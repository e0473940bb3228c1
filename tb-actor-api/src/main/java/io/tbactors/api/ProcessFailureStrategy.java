package io.tbactors.api;

/**
 * What the actor system does when an actor's {@code process} throws: stop the actor, resume with the next message,
 * or restart it (a fresh instance from its creator, initialised again, keeping the mailbox).
 */
public final class ProcessFailureStrategy {

    private static final ProcessFailureStrategy STOP = new ProcessFailureStrategy(true, false);
    private static final ProcessFailureStrategy RESUME = new ProcessFailureStrategy(false, false);
    private static final ProcessFailureStrategy RESTART = new ProcessFailureStrategy(false, true);

    private final boolean stop;
    private final boolean restart;

    private ProcessFailureStrategy(boolean stop, boolean restart) {
        this.stop = stop;
        this.restart = restart;
    }

    /** @return a strategy that stops the actor */
    public static ProcessFailureStrategy stop() {
        return STOP;
    }

    /** @return a strategy that drops the failed message and goes on with the next one */
    public static ProcessFailureStrategy resume() {
        return RESUME;
    }

    /**
     * @return a strategy that destroys the actor, creates a fresh instance with its creator and initialises it,
     *     keeping the waiting messages; bounded by the system's restart limit, after which the actor is stopped
     */
    public static ProcessFailureStrategy restart() {
        return RESTART;
    }

    /** @return whether the actor is stopped */
    public boolean isStop() {
        return stop;
    }

    /** @return whether the actor is restarted */
    public boolean isRestart() {
        return restart;
    }

    @Override
    public String toString() {
        return stop ? "stop" : (restart ? "restart" : "resume");
    }
}
