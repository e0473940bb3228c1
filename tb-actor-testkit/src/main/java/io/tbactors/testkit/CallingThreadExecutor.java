package io.tbactors.testkit;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A dispatcher executor that runs each actor turn at once, on the thread that caused it: a {@code tell} returns only
 * after the receiver (and whatever it told in turn) has processed the message. Tests on it need no waiting at all; an
 * actor that tells itself in a loop recurses, so keep such tests small.
 */
public final class CallingThreadExecutor extends AbstractExecutorService {

    private volatile boolean shutdown;

    @Override
    public void execute(Runnable command) {
        if (shutdown) {
            throw new RejectedExecutionException("the calling-thread executor is shut down");
        }
        command.run();
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }
}
