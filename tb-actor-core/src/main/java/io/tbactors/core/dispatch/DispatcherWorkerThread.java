package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** A fork-join dispatcher thread that counts the actor turns it runs in a cell of its own. */
final class DispatcherWorkerThread extends ForkJoinWorkerThread {

    private final TurnCounters counters;
    private final TurnCounters.Cell turns;
    // full turns run by this thread, counted by it alone
    private int fullTurns;
    // the batch the first turns of actors created by this thread's turns join (see Dispatcher#executeFirstTurn)
    FirstTurnBatch firstTurns;

    DispatcherWorkerThread(ForkJoinPool pool, TurnCounters counters) {
        super(pool);
        this.counters = counters;
        this.turns = counters.newCell();
    }

    /** @return whether the factory that counts into {@code factoryCounters} made this thread */
    boolean madeBy(TurnCounters factoryCounters) {
        return counters == factoryCounters;
    }

    void countTurn() {
        turns.increment();
    }

    /**
     * Every {@value Dispatcher#SUBMISSIONS_EVERY}th full turn of this thread lets the turns submitted from outside the
     * pool in, so they wait a bounded number of turns without each full turn taking from the pool's submission queues,
     * which the producers are writing to.
     *
     * @return whether this full turn is one that lets submissions in
     */
    boolean fullTurnLetsSubmissionsIn() {
        return (++fullTurns & (Dispatcher.SUBMISSIONS_EVERY - 1)) == 0;
    }

    @Override
    protected void onTermination(Throwable exception) {
        counters.retire(turns);
        super.onTermination(exception);
    }
}
