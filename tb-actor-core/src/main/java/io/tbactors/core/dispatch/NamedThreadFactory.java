package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Daemon threads named {@code prefix-N}, for plain and fork-join pools, that log what escapes a task.
 */
public final class NamedThreadFactory implements ThreadFactory, ForkJoinPool.ForkJoinWorkerThreadFactory {

    private static final Logger log = LoggerFactory.getLogger(NamedThreadFactory.class);
    private static final Thread.UncaughtExceptionHandler LOGGING_HANDLER =
            (t, e) -> log.error("Uncaught exception in thread {}", t.getName(), e);

    private final String prefix;
    private final AtomicInteger counter = new AtomicInteger();
    private final TurnCounters turns = new TurnCounters();

    /** @param prefix the thread name prefix */
    public NamedThreadFactory(String prefix) {
        this.prefix = prefix;
    }

    /** @return the handler that logs uncaught exceptions */
    public static Thread.UncaughtExceptionHandler loggingHandler() {
        return LOGGING_HANDLER;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new DispatcherThread(r, prefix + "-" + counter.incrementAndGet(), turns);
        t.setDaemon(true);
        t.setUncaughtExceptionHandler(LOGGING_HANDLER);
        return t;
    }

    @Override
    public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
        ForkJoinWorkerThread t = new DispatcherWorkerThread(pool, turns);
        t.setName(prefix + "-" + counter.incrementAndGet());
        t.setDaemon(true);
        return t;
    }

    /** @return whether this factory made the thread */
    boolean made(Thread thread) {
        return thread instanceof DispatcherThread plain && plain.madeBy(turns)
                || thread instanceof DispatcherWorkerThread worker && worker.madeBy(turns);
    }

    /** @return actor turns run by the threads of this factory so far */
    long completedTurns() {
        return turns.total();
    }
}
