package io.tbactors.benchmarks.memory;

import io.tbactors.benchmarks.support.Completion;

/**
 * Many idle actors under one parent. The actors keep no reference to the benchmark (that would add a field to
 * every actor), so they report their start to {@link #STARTED}; one runtime lives in a forked JVM at a time.
 */
interface IdleActors extends AutoCloseable {

    /** Counted down by every idle actor when it starts. */
    Completion STARTED = new Completion();

    /**
     * Creates idle actors named {@code device-0 .. device-(count - 1)} and waits until all have started.
     *
     * @param count how many
     */
    void create(int count);

    /** Stops the runtime. */
    @Override
    void close();
}
