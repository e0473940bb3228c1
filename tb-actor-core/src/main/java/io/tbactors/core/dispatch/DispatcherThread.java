package io.tbactors.core.dispatch;

/**
 * A plain dispatcher thread (single-thread dispatchers and executors built on a {@link NamedThreadFactory}) that
 * counts the actor turns it runs in a cell of its own.
 */
final class DispatcherThread extends Thread {

    private final TurnCounters.Cell turns;
    private final TurnCounters counters;

    DispatcherThread(Runnable task, String name, TurnCounters counters) {
        this(counters.newCell(), task, name, counters);
    }

    private DispatcherThread(TurnCounters.Cell cell, Runnable task, String name, TurnCounters counters) {
        super(() -> {
            try {
                task.run();
            } finally {
                counters.retire(cell);
            }
        }, name);
        this.turns = cell;
        this.counters = counters;
    }

    /** @return whether the factory that counts into {@code factoryCounters} made this thread */
    boolean madeBy(TurnCounters factoryCounters) {
        return counters == factoryCounters;
    }

    void countTurn() {
        turns.increment();
    }
}
