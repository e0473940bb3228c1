package io.tbactors.api;

/**
 * What the actor system does when an actor's {@code process} throws: stop the actor, or resume with the next message.
 */
public final class ProcessFailureStrategy {

    private static final ProcessFailureStrategy STOP = new ProcessFailureStrategy(true);
    private static final ProcessFailureStrategy RESUME = new ProcessFailureStrategy(false);

    private final boolean stop;

    private ProcessFailureStrategy(boolean stop) {
        this.stop = stop;
    }

    /** @return a strategy that stops the actor */
    public static ProcessFailureStrategy stop() {
        return STOP;
    }

    /** @return a strategy that drops the failed message and goes on with the next one */
    public static ProcessFailureStrategy resume() {
        return RESUME;
    }

    /** @return whether the actor is stopped */
    public boolean isStop() {
        return stop;
    }

    @Override
    public String toString() {
        return stop ? "stop" : "resume";
    }
}
