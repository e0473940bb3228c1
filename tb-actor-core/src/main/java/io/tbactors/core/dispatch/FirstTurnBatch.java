package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first turns of actors that one fork-join worker's turn creates, run one after the other as a single task (see
 * {@link Dispatcher#executeFirstTurn}). The batch is forked when its first turn is added, so it can be stolen and run
 * while the creating turn still runs (a parent that waits for its child inside its turn is not left waiting); turns
 * are added until the batch is full or has begun to run out of turns to take, after which the worker starts a new one.
 *
 * <p>Only the creating worker adds, while whoever runs the batch takes, and a pool's {@code shutdownNow} may cancel it
 * meanwhile: adding and taking hold the batch's lock (uncontended but for the moment the batch starts), so each turn
 * is either run by the batch or, when the batch is cancelled unrun, handed back to its actor through its own
 * {@code cancel} (which finishes the actor as for any turn a shut-down executor drops).
 */
final class FirstTurnBatch extends ForkJoinTask<Void> {

    private static final long serialVersionUID = 1L;

    private static final Logger log = LoggerFactory.getLogger(FirstTurnBatch.class);

    private final Runnable[] turns = new Runnable[Dispatcher.FIRST_TURNS_PER_BATCH];
    private int added;
    private int taken;
    private boolean closed;

    FirstTurnBatch(Runnable first) {
        turns[added++] = first;
    }

    /** @return whether the turn joined this batch; false once it is full or has run out of turns to take */
    synchronized boolean tryAdd(Runnable turn) {
        if (closed || added == turns.length) {
            return false;
        }
        turns[added++] = turn;
        return true;
    }

    /** @return the next turn to run or hand back, or null (then the batch takes no more) */
    private synchronized Runnable take() {
        if (taken == added) {
            closed = true;
            return null;
        }
        Runnable turn = turns[taken];
        turns[taken++] = null;
        return turn;
    }

    @Override
    protected boolean exec() {
        Runnable turn;
        while ((turn = take()) != null) {
            try {
                turn.run();
            } catch (Throwable t) {
                // a turn contains every callback's failure; this is an Error of the runtime itself
                log.error("Actor first turn failed", t);
            }
        }
        return true;
    }

    /**
     * Called by a fork-join pool that drops the batch without running it ({@code shutdownNow}): every turn not taken
     * yet goes back to its actor as a dropped turn of its own.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        Runnable turn;
        while ((turn = take()) != null) {
            if (turn instanceof ForkJoinTask<?> task) {
                task.cancel(false);
            }
        }
        return super.cancel(mayInterruptIfRunning);
    }

    @Override
    public Void getRawResult() {
        return null;
    }

    @Override
    protected void setRawResult(Void value) {
        // a batch has no result
    }
}
