package io.tbactors.benchmarks.creation;

/** Creates children under one parent, one batch per parent. */
interface ChildCreation extends AutoCloseable {

    /** Creates a fresh parent for the next batch. */
    void prepare();

    /**
     * Asks the parent to create its children and waits until every child has started (its init ran).
     *
     * @param count how many children
     */
    void createChildren(int count);

    /** Stops the parent and waits until all its children are gone. */
    void cleanUp();

    /** Stops the runtime. */
    @Override
    void close();
}
