package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.LongSupplier;

/** A fork-join dispatcher thread that counts the actor turns it runs in a cell of its own. */
final class DispatcherWorkerThread extends ForkJoinWorkerThread {

    private final TurnCounters counters;
    private final TurnCounters.Cell turns;
    // full turns run by this thread, counted by it alone
    private int fullTurns;
    // when this thread last let the submissions in, on the dispatcher's clock; valid once letInBefore is set
    private long lastLetIn;
    private boolean letInBefore;
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
     * Every {@value Dispatcher#SUBMISSIONS_EVERY}th full turn of this thread reads the clock, and lets the turns
     * submitted from outside the pool in when {@link Dispatcher#SUBMISSIONS_INTERVAL_NANOS} has passed since it last
     * did (the first time at once): they wait a bounded time, without each full turn taking from the pool's submission
     * queues, which the producers are writing to.
     *
     * @param clock the dispatcher's clock, in nanoseconds
     * @return whether this full turn is one that lets submissions in
     */
    boolean fullTurnLetsSubmissionsIn(LongSupplier clock) {
        if ((++fullTurns & (Dispatcher.SUBMISSIONS_EVERY - 1)) != 0) {
            return false;
        }
        long now = clock.getAsLong();
        if (letInBefore && now - lastLetIn < Dispatcher.SUBMISSIONS_INTERVAL_NANOS) {
            return false;
        }
        letInBefore = true;
        lastLetIn = now;
        return true;
    }

    @Override
    protected void onTermination(Throwable exception) {
        counters.retire(turns);
        super.onTermination(exception);
    }
}
