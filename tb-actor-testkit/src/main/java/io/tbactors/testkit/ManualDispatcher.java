package io.tbactors.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A dispatcher executor that only queues actor turns: the test runs them one at a time ({@link #runNext()}) or until
 * none is left ({@link #runUntilIdle()}), on its own thread, so it decides exactly which actor moves when.
 */
public final class ManualDispatcher extends AbstractExecutorService {

    /** Turns {@link #runUntilIdle()} runs at most before it decides the actors never go quiet. */
    public static final int MAX_TURNS_UNTIL_IDLE = 1_000_000;

    private final ArrayDeque<Runnable> turns = new ArrayDeque<>();
    private boolean shutdown;

    @Override
    public synchronized void execute(Runnable command) {
        if (shutdown) {
            throw new RejectedExecutionException("the manual dispatcher is shut down");
        }
        turns.add(command);
    }

    /** @return whether a turn was waiting and has run */
    public boolean runNext() {
        Runnable next;
        synchronized (this) {
            next = turns.poll();
        }
        if (next == null) {
            return false;
        }
        next.run();
        return true;
    }

    /**
     * Runs turns, including those the turns submit, until none waits.
     *
     * @return how many ran
     * @throws IllegalStateException when the actors keep submitting turns past {@link #MAX_TURNS_UNTIL_IDLE}
     */
    public int runUntilIdle() {
        int ran = 0;
        while (runNext()) {
            if (++ran >= MAX_TURNS_UNTIL_IDLE) {
                throw new IllegalStateException("The actors did not go quiet within " + MAX_TURNS_UNTIL_IDLE
                        + " turns: an actor probably tells itself forever");
            }
        }
        return ran;
    }

    /** @return turns waiting to run */
    public synchronized int pendingTurns() {
        return turns.size();
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> waiting = new ArrayList<>(turns);
        turns.clear();
        return waiting;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && turns.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        // nobody but the test runs these turns: waiting would only let the timeout pass
        return isTerminated();
    }
}
