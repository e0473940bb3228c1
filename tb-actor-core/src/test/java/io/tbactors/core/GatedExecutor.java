package io.tbactors.core;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * An executor that runs nothing by itself: submitted turns wait until the test runs them, and a submission from a
 * chosen thread can be held inside {@code execute} until the test lets it through. This is how a test forces an
 * interleaving instead of hoping for it.
 */
final class GatedExecutor extends AbstractExecutorService {

    private final LinkedBlockingDeque<Runnable> tasks = new LinkedBlockingDeque<>();
    private volatile boolean shutdown;
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
        if (shutdown) {
            throw new RejectedExecutionException("gated executor is shut down");
        }
        if (holdSubmitter.test(Thread.currentThread())) {
            holdSubmitter = t -> false;
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            tasks.add(command);
            heldDone.countDown();
            return;
        }
        tasks.add(command);
    }

    /** @return turns waiting to be run */
    int queued() {
        return tasks.size();
    }

    /** Runs the oldest waiting turn on the calling thread; @return whether there was one */
    boolean runNext() {
        Runnable task = tasks.poll();
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    /** Runs waiting turns, including the ones they submit, until none is left. */
    int runAll() {
        int ran = 0;
        while (runNext()) {
            ran++;
        }
        return ran;
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new java.util.ArrayList<>(tasks);
        tasks.clear();
        return left;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && tasks.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }
}
