package io.tbactors.core.observe;

/**
 * Carries a context (a trace, logging MDC, other thread locals) from the thread that tells a message to the
 * thread that processes it. {@link #capture()} runs on the telling thread for every message, and
 * {@link #restore(Object)} on the dispatcher thread around the actor's {@code process}; both are on the hot path
 * and must be fast, thread-safe and must not throw.
 */
public interface TbMessageContextPropagator {

    /** @return what must travel with the message, or null when there is nothing to carry */
    Object capture();

    /**
     * @param context what {@link #capture()} returned for the message, never null
     * @return a scope closed right after the message is processed, which undoes the restoring
     */
    Scope restore(Object context);

    /** Undoes a {@link #restore(Object)}. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
