package io.tbactors.core;

import java.util.concurrent.ForkJoinTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fork-join side of a mailbox. A fork-join dispatcher runs the mailbox itself as its task, so scheduling a turn
 * allocates no wrapper; {@link #exec} runs one turn ({@link #run}) and returns false, which keeps the task never
 * completed, so the same object can be submitted again for the next turn. Other executors run it as a
 * {@link Runnable}. Nobody outside may complete or cancel it: an actor is stopped, not cancelled. An executor's
 * {@code shutdownNow} drops the turns it had queued: a fork-join pool cancels them, a thread pool returns them; either
 * way the turn is handed back ({@link #turnNotRun}), since a dropped turn would leave its actor's messages untold.
 */
abstract class MailboxTask extends ForkJoinTask<Void> implements Runnable {

    private static final long serialVersionUID = 1L;

    private static final Logger log = LoggerFactory.getLogger(TbActorMailbox.class);

    @Override
    protected final boolean exec() {
        try {
            run();
        } catch (Throwable t) {
            // run() contains every callback's failure; this is an Error of the runtime itself
            log.error("[{}] Actor turn failed", this, t);
        }
        return false;
    }

    @Override
    public final Void getRawResult() {
        return null;
    }

    @Override
    protected final void setRawResult(Void value) {
        // a turn has no result
    }

    /**
     * Called by a fork-join pool for a queued turn it drops without running it ({@code shutdownNow}).
     *
     * @return false: an actor's turns are not a future to cancel; stop the actor instead
     */
    @Override
    public final boolean cancel(boolean mayInterruptIfRunning) {
        turnNotRun();
        return false;
    }

    /** The executor dropped this submitted turn without running it; the caller holds the turn now. */
    abstract void turnNotRun();

    /** Not supported: an actor's turns never complete as a task. */
    @Override
    public final void complete(Void value) {
        throw new UnsupportedOperationException("An actor mailbox is not a future; stop the actor instead");
    }

    /** Not supported: an actor's turns never complete as a task. */
    @Override
    public final void completeExceptionally(Throwable ex) {
        throw new UnsupportedOperationException("An actor mailbox is not a future; stop the actor instead");
    }
}
