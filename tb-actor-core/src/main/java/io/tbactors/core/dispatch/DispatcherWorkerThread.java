package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** A fork-join dispatcher thread that counts the actor turns it runs in a cell of its own. */
final class DispatcherWorkerThread extends ForkJoinWorkerThread {

    private final TurnCounters counters;
    private final TurnCounters.Cell turns;
    // whether a task was pushed from this thread since the last turn that ended idle (read and written by it alone)
    private boolean pushedSinceIdleTurn;

    DispatcherWorkerThread(ForkJoinPool pool, TurnCounters counters) {
        super(pool);
        this.counters = counters;
        this.turns = counters.newCell();
    }

    void countTurn() {
        turns.increment();
    }

    void pushed() {
        pushedSinceIdleTurn = true;
    }

    /** @return whether a task was pushed from this thread since the last call; clears the mark */
    boolean takePushed() {
        boolean pushed = pushedSinceIdleTurn;
        pushedSinceIdleTurn = false;
        return pushed;
    }

    @Override
    protected void onTermination(Throwable exception) {
        counters.retire(turns);
        super.onTermination(exception);
    }
}
