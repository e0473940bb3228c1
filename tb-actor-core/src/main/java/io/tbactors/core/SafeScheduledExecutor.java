package io.tbactors.core;

import io.tbactors.core.dispatch.NamedThreadFactory;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actor system's scheduler. A task that throws is logged; a periodic task that throws keeps its schedule
 * instead of being silently cancelled, as a plain {@link ScheduledThreadPoolExecutor} would do.
 * Cancelled tasks are removed at once so cancelled timers do not pile up.
 */
final class SafeScheduledExecutor extends ScheduledThreadPoolExecutor {

    private static final Logger log = LoggerFactory.getLogger(SafeScheduledExecutor.class);

    SafeScheduledExecutor(int poolSize, String threadPrefix) {
        super(poolSize, new NamedThreadFactory(threadPrefix));
        setRemoveOnCancelPolicy(true);
        setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return super.schedule(logging(command, false), delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return super.scheduleAtFixedRate(logging(command, true), initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return super.scheduleWithFixedDelay(logging(command, true), initialDelay, delay, unit);
    }

    @Override
    public void execute(Runnable command) {
        super.execute(logging(command, false));
    }

    private static Runnable logging(Runnable command, boolean periodic) {
        if (command == null) {
            throw new NullPointerException("scheduled task must not be null");
        }
        return () -> {
            try {
                command.run();
            } catch (RuntimeException | Error e) {
                if (periodic) {
                    log.error("Periodic scheduled task {} failed; it stays scheduled", command, e);
                } else {
                    log.error("Scheduled task {} failed", command, e);
                    throw e;
                }
            }
        };
    }
}
