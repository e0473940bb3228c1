package io.tbactors.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * An executor whose tasks run only when the test says so: {@link #execute} queues, {@link #runOne} runs the oldest
 * queued task on the calling thread. Given to {@code createDispatcher(name, executor)}, it turns every actor turn
 * into an explicit step, so a model checker can place each turn anywhere among tells and stops.
 */
class SteppingExecutor extends AbstractExecutorService {

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private volatile boolean shutdown;

    @Override
    public void execute(Runnable command) {
        if (shutdown) {
            throw new RejectedExecutionException("stepping executor is shut down");
        }
        tasks.add(command);
    }

    /** @return whether a task was run */
    boolean runOne() {
        Runnable task = tasks.poll();
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    /**
     * Runs queued tasks, including those they queue, until none is left or {@code limit} ran.
     *
     * @return how many ran
     */
    int runAll(int limit) {
        int ran = 0;
        while (ran < limit && runOne()) {
            ran++;
        }
        return ran;
    }

    int queued() {
        return tasks.size();
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new ArrayList<>();
        Runnable task;
        while ((task = tasks.poll()) != null) {
            left.add(task);
        }
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
