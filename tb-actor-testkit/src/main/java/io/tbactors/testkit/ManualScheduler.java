package io.tbactors.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A scheduler whose clock only moves when the test says so: nothing runs until {@link #advance(Duration)}, which runs
 * every task that comes due on the way, in due order, on the calling thread. Give it to an actor system through
 * {@code TbActorSystemSettings.builder().scheduler(() -> scheduler).nanoClock(scheduler::nanoTime)} and init retries,
 * restart backoff, ask timeouts, idle passivation and the actors' own timers are tested without sleeping.
 *
 * <p>As in the runtime's own scheduler, a task that throws does not stop the scheduler and a periodic one stays
 * scheduled; the failures are kept for the test to see ({@link #failures()}). Any thread may schedule; only
 * {@code advance} runs tasks.
 */
public final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private final Object lock = new Object();
    private final PriorityQueue<Task<?>> queue = new PriorityQueue<>(
            Comparator.<Task<?>>comparingLong(task -> task.dueNanos).thenComparingLong(task -> task.sequenceNumber));
    private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    private long nowNanos;
    private long sequence;
    private boolean shutdown;

    /** @return how far the clock has been advanced since the scheduler was created */
    public Duration now() {
        synchronized (lock) {
            return Duration.ofNanos(nowNanos);
        }
    }

    /**
     * @return the clock in nanoseconds, for {@code TbActorSystemSettings.builder().nanoClock(scheduler::nanoTime)}, so
     *     that idle passivation measures on this clock too
     */
    public long nanoTime() {
        synchronized (lock) {
            return nowNanos;
        }
    }

    /**
     * Moves the clock forward, running each task that comes due, at its due time, in order of due time then of
     * scheduling; tasks scheduled by those tasks run too when they fall due within the step.
     *
     * @param step how far to move the clock, 0 or more
     * @return how many tasks ran
     */
    public int advance(Duration step) {
        Objects.requireNonNull(step, "step must not be null");
        if (step.isNegative()) {
            throw new IllegalArgumentException("the clock only moves forward; step must be 0 or more, got " + step);
        }
        long target;
        synchronized (lock) {
            target = nowNanos + step.toNanos();
        }
        int ran = 0;
        while (true) {
            Task<?> due;
            synchronized (lock) {
                due = queue.peek();
                if (due == null || due.dueNanos > target) {
                    nowNanos = target;
                    return ran;
                }
                queue.poll();
                nowNanos = Math.max(nowNanos, due.dueNanos);
            }
            due.runAndReschedule();
            ran++;
        }
    }

    /** @return how many tasks ran: the ones due now, without moving the clock */
    public int runDue() {
        return advance(Duration.ZERO);
    }

    /** @return tasks waiting for their time, cancelled ones excluded */
    public int pendingTasks() {
        synchronized (lock) {
            return (int) queue.stream().filter(task -> !task.future.isDone()).count();
        }
    }

    /** @return how long until the next task is due, or null when none waits */
    public @Nullable Duration nextDueIn() {
        synchronized (lock) {
            return queue.stream().filter(task -> !task.future.isDone()).mapToLong(task -> task.dueNanos).min()
                    .stream().mapToObj(due -> Duration.ofNanos(Math.max(0, due - nowNanos))).findFirst().orElse(null);
        }
    }

    /** @return what the tasks that threw have thrown, oldest first */
    public List<Throwable> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    private <V> Task<V> enqueue(Callable<V> callable, long delayNanos, long periodNanos) {
        Objects.requireNonNull(callable, "task must not be null");
        synchronized (lock) {
            if (shutdown) {
                throw new RejectedExecutionException("the scheduler is shut down");
            }
            Task<V> task = new Task<>(callable, nowNanos + Math.max(0, delayNanos), periodNanos, sequence++);
            queue.add(task);
            return task;
        }
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "task must not be null");
        return enqueue(() -> {
            command.run();
            return null;
        }, unit.toNanos(delay), 0);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return enqueue(callable, unit.toNanos(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return periodic(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        // on a clock that only the test moves and tasks that take no time, fixed delay and fixed rate coincide
        return periodic(command, initialDelay, delay, unit);
    }

    private ScheduledFuture<?> periodic(Runnable command, long initialDelay, long period, TimeUnit unit) {
        Objects.requireNonNull(command, "task must not be null");
        if (period <= 0) {
            throw new IllegalArgumentException("period must be positive, got " + period);
        }
        return enqueue(() -> {
            command.run();
            return null;
        }, unit.toNanos(initialDelay), unit.toNanos(period));
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public void shutdown() {
        synchronized (lock) {
            shutdown = true;
            queue.clear();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        synchronized (lock) {
            shutdown = true;
            List<Runnable> waiting = new ArrayList<>(queue);
            queue.forEach(task -> task.future.cancel(false));
            queue.clear();
            return waiting;
        }
    }

    @Override
    public boolean isShutdown() {
        synchronized (lock) {
            return shutdown;
        }
    }

    @Override
    public boolean isTerminated() {
        return isShutdown();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }

    /** A scheduled task; its future completes when a one-shot task has run or any task is cancelled. */
    private final class Task<V> implements ScheduledFuture<V>, Runnable {
        private final Callable<V> callable;
        private final long periodNanos;
        private final long sequenceNumber;
        private final CompletableFuture<V> future = new CompletableFuture<>();
        private long dueNanos;

        Task(Callable<V> callable, long dueNanos, long periodNanos, long sequenceNumber) {
            this.callable = callable;
            this.dueNanos = dueNanos;
            this.periodNanos = periodNanos;
            this.sequenceNumber = sequenceNumber;
        }

        @Override
        public void run() {
            runAndReschedule();
        }

        void runAndReschedule() {
            if (future.isDone()) {
                return;
            }
            try {
                V value = callable.call();
                if (periodNanos == 0) {
                    future.complete(value);
                }
            } catch (Exception | Error e) {
                failures.add(e);
                if (periodNanos == 0) {
                    future.completeExceptionally(e);
                }
            }
            if (periodNanos > 0 && !future.isDone()) {
                synchronized (lock) {
                    if (!shutdown) {
                        dueNanos += periodNanos;
                        queue.add(this);
                    }
                }
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            synchronized (lock) {
                return unit.convert(dueNanos - nowNanos, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = future.cancel(false);
            if (cancelled) {
                synchronized (lock) {
                    queue.remove(this);
                }
            }
            return cancelled;
        }

        @Override
        public boolean isCancelled() {
            return future.isCancelled();
        }

        @Override
        public boolean isDone() {
            return future.isDone();
        }

        @Override
        public V get() throws InterruptedException, ExecutionException {
            return future.get();
        }

        @Override
        public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            return future.get(timeout, unit);
        }
    }
}
