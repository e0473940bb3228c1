package io.tbactors.benchmarks.creation;

import io.tbactors.benchmarks.support.Completion;

/**
 * Creates children under one parent, one batch per fresh parent, and stops them between batches. The bookkeeping is
 * shared; each runtime says how to create, tell and stop a parent.
 */
abstract class ChildCreation implements AutoCloseable {

    /** What a child reports: its start, and its stop. */
    protected final ChildEvents events = new ChildEvents(new Completion(), new Completion());

    private final String[] names;
    private int generation;
    private int lastCount;

    ChildCreation(String[] names) {
        this.names = names;
    }

    /** Creates a fresh parent for the next batch. */
    final void prepare() {
        createParent("parent-" + generation++);
    }

    /**
     * Asks the parent to create its children and waits until every child has started (its init ran).
     *
     * @param count how many children
     */
    final void createChildren(int count) {
        lastCount = count;
        events.started().arm(count);
        tellParent(new Spawn(names, count));
        events.started().await();
    }

    /**
     * Stops the parent and waits until all its children are gone and the runtime has finished the stop, so that no
     * bookkeeping of one batch's stop runs inside the next batch's measured time.
     */
    final void cleanUp() {
        events.stopped().arm(lastCount);
        stopParent();
        events.stopped().await();
        awaitStopFinished();
    }

    /**
     * Waits for whatever the runtime still does for a stop after the children's own stop callbacks ran. Nothing by
     * default: a runtime that unregisters its actors before calling them (ThingsBoard's original does, inside its
     * {@code stop}) is done when the last callback ran.
     */
    void awaitStopFinished() {
    }

    /** @param name the new parent's name */
    abstract void createParent(String name);

    /** @param spawn the message to tell the current parent */
    abstract void tellParent(Spawn spawn);

    /** Stops the current parent, and with it its children. */
    abstract void stopParent();

    /** Stops the runtime. */
    @Override
    public abstract void close();

    /**
     * The completions a child counts down.
     *
     * @param started counted down when a child has started
     * @param stopped counted down when a child has stopped
     */
    record ChildEvents(Completion started, Completion stopped) {
    }
}
