package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** A fork-join dispatcher thread that counts the actor turns it runs in a cell of its own. */
final class DispatcherWorkerThread extends ForkJoinWorkerThread {

    private final TurnCounters counters;
    private final TurnCounters.Cell turns;

    DispatcherWorkerThread(ForkJoinPool pool, TurnCounters counters) {
        super(pool);
        this.counters = counters;
        this.turns = counters.newCell();
    }

    void countTurn() {
        turns.increment();
    }

    @Override
    protected void onTermination(Throwable exception) {
        counters.retire(turns);
        super.onTermination(exception);
    }
}
