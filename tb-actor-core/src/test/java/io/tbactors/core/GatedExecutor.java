package io.tbactors.core;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link SteppingExecutor} (turns wait until the test runs them) whose submission from a chosen thread can also be
 * held inside {@code execute} until the test lets it through. This is how a test forces an interleaving instead of
 * hoping for it.
 */
final class GatedExecutor extends SteppingExecutor {

    private volatile Predicate<Thread> holdSubmitter = t -> false;
    private volatile CountDownLatch held = new CountDownLatch(1);
    private volatile CountDownLatch release = new CountDownLatch(0);
    private volatile CountDownLatch heldDone = new CountDownLatch(1);

    /** The next submission made by a thread matching {@code which} waits in {@code execute} until {@link #letThrough()}. */
    void holdNextSubmissionFrom(Predicate<Thread> which) {
        held = new CountDownLatch(1);
        release = new CountDownLatch(1);
        heldDone = new CountDownLatch(1);
        holdSubmitter = which;
    }

    /** Waits until the held submitter is inside {@code execute}. */
    void awaitHeld() throws InterruptedException {
        if (!held.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("no submission was held");
        }
    }

    /** Lets the held submission through and waits until it is queued. */
    void letThrough() throws InterruptedException {
        release.countDown();
        if (!heldDone.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the held submission did not complete");
        }
    }

    @Override
    public void execute(Runnable command) {
        if (!holdSubmitter.test(Thread.currentThread())) {
            super.execute(command);
            return;
        }
        holdSubmitter = t -> false;
        held.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        super.execute(command);
        heldDone.countDown();
    }

    /** Runs waiting turns, including the ones they submit, until none is left. */
    int runAll() {
        return runAll(Integer.MAX_VALUE);
    }
}
