package io.tbactors.core.dispatch;

import io.tbactors.api.TbMailboxBound;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A named executor registered in an actor system, with the counters its reports need.
 */
public final class Dispatcher {

    private final String name;
    private final ExecutorService executor;
    private final DispatcherKind kind;
    private final int poolSize;
    // turns run on threads that do not count their own (custom executors, virtual threads)
    private final LongAdder completedTurns = new LongAdder();
    private final NamedThreadFactory threadFactory;
    private final AtomicInteger actors = new AtomicInteger();
    private volatile TbMailboxBound mailboxBound;
    private volatile boolean paddedMailboxes;
    private final boolean forkJoin;
    private final LongSupplier nanoClock;

    /**
     * A dispatcher whose fork-join fairness ({@link #fullTurnEnded}) measures with {@link System#nanoTime()}.
     *
     * @param name the dispatcher's name
     * @param executor the executor that runs actor turns
     * @param kind what kind of executor it is
     * @param poolSize its configured number of threads (0 when unbounded, as for virtual threads)
     */
    public Dispatcher(String name, ExecutorService executor, DispatcherKind kind, int poolSize) {
        this(name, executor, kind, poolSize, System::nanoTime);
    }

    /**
     * @param name the dispatcher's name
     * @param executor the executor that runs actor turns
     * @param kind what kind of executor it is
     * @param poolSize its configured number of threads (0 when unbounded, as for virtual threads)
     * @param nanoClock the clock, in nanoseconds, that paces how often a fork-join worker lets the turns submitted from
     *     outside the pool in ({@link #SUBMISSIONS_INTERVAL_NANOS}); the actor system's clock, which a test may supply
     */
    public Dispatcher(String name, ExecutorService executor, DispatcherKind kind, int poolSize, LongSupplier nanoClock) {
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock must not be null");
        this.name = name;
        this.executor = executor;
        this.kind = kind;
        this.poolSize = poolSize;
        this.threadFactory = namedThreadFactoryOf(executor);
        this.forkJoin = executor instanceof ForkJoinPool;
    }

    private static NamedThreadFactory namedThreadFactoryOf(ExecutorService executor) {
        if (executor instanceof ForkJoinPool fj && fj.getFactory() instanceof NamedThreadFactory named) {
            return named;
        } else if (executor instanceof ThreadPoolExecutor tpe && tpe.getThreadFactory() instanceof NamedThreadFactory named) {
            return named;
        }
        return null;
    }

    /** @return the dispatcher's name */
    public String getName() {
        return name;
    }

    /** @return the executor */
    public ExecutorService getExecutor() {
        return executor;
    }

    /** @return the executor's kind */
    public DispatcherKind getKind() {
        return kind;
    }

    /** @return the configured number of threads, 0 when unbounded */
    public int getPoolSize() {
        return poolSize;
    }

    /** @return the bound given to the mailboxes of actors created on this dispatcher, or null for unbounded */
    public TbMailboxBound getMailboxBound() {
        return mailboxBound;
    }

    /** @param bound the bound for actors created from now on, null for unbounded */
    public void setMailboxBound(TbMailboxBound bound) {
        this.mailboxBound = bound;
    }

    /** @return whether actors created on this dispatcher get the padded mailbox (see {@link #setPaddedMailboxes}) */
    public boolean hasPaddedMailboxes() {
        return paddedMailboxes;
    }

    /**
     * @param padded whether actors created from now on get the padded mailbox: the ends of its queue on cache lines of
     *     their own, about 200 bytes more per actor, for a few actors that take many messages from other threads
     */
    public void setPaddedMailboxes(boolean padded) {
        this.paddedMailboxes = padded;
    }

    private static final Runnable NO_OP = () -> { };

    /**
     * On a fork-join dispatcher, a worker looks whether to let the turns submitted from outside the pool in at every
     * this many of its full turns (a power of two), and lets them in when {@link #SUBMISSIONS_INTERVAL_NANOS} has
     * passed since it last did.
     */
    public static final int SUBMISSIONS_EVERY = 8;

    /**
     * On a fork-join dispatcher, a worker whose own turns keep it busy lets the turns submitted from outside the pool
     * in at most once in this long (1 ms), at the first {@value #SUBMISSIONS_EVERY}th full turn after it.
     */
    public static final long SUBMISSIONS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * The first turns of new actors that one turn of a fork-join worker gathers into one task, at most (see {@link
     * #executeFirstTurn}): a batch of slow inits holds back no more than this many others.
     */
    public static final int FIRST_TURNS_PER_BATCH = 64;

    /** How many turns submitted from outside the pool a full turn moves ahead of its own next turn, at most. */
    static final int MAX_SUBMISSIONS_MOVED = 64;

    /**
     * Submits an actor's turn. On a fork-join dispatcher's own worker a mailbox is forked onto the worker's queue
     * (a plain push, which wakes another worker only if that queue was empty) rather than executed (which takes the
     * queue's lock and wakes a worker while the queue holds up to one task).
     *
     * @param task an actor turn to run
     */
    public void execute(Runnable task) {
        if (task instanceof ForkJoinTask<?> fjTask && ownWorker() != null) {
            fjTask.fork();
        } else {
            executor.execute(task);
        }
    }

    /**
     * Submits the first turn of an actor just created (its init). On a fork-join dispatcher's own worker, the first
     * turns of the actors one turn creates are gathered into batches of up to {@value #FIRST_TURNS_PER_BATCH} that
     * each run as one task: the other workers steal a batch, not each new actor, so a turn that creates thousands of
     * children does not hand them to another core one by one, waking it each time it catches up (BENCHMARKS.md,
     * "Children started in batches"). A batch is queued as soon as its first turn joins it, so it may run while the
     * creating turn still runs; elsewhere this is {@link #execute}.
     *
     * @param turn the new actor's first turn, held by the caller
     */
    public void executeFirstTurn(Runnable turn) {
        DispatcherWorkerThread worker = ownWorker();
        if (worker == null || executor.isShutdown()) {
            execute(turn);
            return;
        }
        FirstTurnBatch batch = worker.firstTurns;
        if (batch == null || !batch.tryAdd(turn)) {
            batch = new FirstTurnBatch(turn);
            worker.firstTurns = batch;
            batch.fork();
        }
    }

    /**
     * An actor's turn ended with its queues empty. On a fork-join dispatcher's own worker, pushes a task that does
     * nothing behind whatever the turn scheduled: a fork-join pool wakes an idle worker whenever a task is pushed onto
     * an empty queue, so without it the actor this turn scheduled would, in its own turn, push its answer onto an empty
     * queue again and pay that wake-up on the way back (and the other worker, woken for nothing, parks again). With the
     * no-op behind it, that push wakes nobody; the worker runs the no-op in a few nanoseconds. The pool wraps it in a
     * new task each time (32 B): one shared never-completing task, tried first, left twice the p99 of this. Pushing it
     * only after turns that had pushed a task themselves measured slower where many actors are told from outside the
     * pool (BENCHMARKS.md, "Fork-join fairness"). ThingsBoard's runtime gets the same effect from the check task it
     * submits after every turn (BENCHMARKS.md, "The idle turn's no-op (ping-pong p99)").
     */
    public void turnEndedIdle() {
        DispatcherWorkerThread worker = ownWorker();
        // not once the pool is shutting down: nothing may keep feeding a worker's queue then
        if (worker != null && !executor.isShutdown()) {
            worker.getPool().execute(NO_OP);
        }
    }

    /**
     * A turn processed messages and then found its queues empty: should the holder keep the turn and queue it once more
     * behind the worker's other turns, rather than let the actor go idle? Yes on a fork-join dispatcher's own worker
     * whose queue holds other turns (typically the actor this turn just told, or the other actors of a busy worker):
     * by the time the other turns have run, a reply or the sender's next message has often come, and it is taken
     * without a schedule (no submission from the sender, no worker woken, no idle compare-and-set, no no-op task). The
     * next turn looks again only if it too processed something. Not when the worker's queue is empty: the turn would
     * run again at once, polling a mailbox its sender is still writing to (1 actor x 1M measured slower that way:
     * BENCHMARKS.md, "A busy worker keeps its actors scheduled"). Such a turn counts as a full one for {@link
     * #fullTurnEnded}, so actors that keep telling each other on one worker let the turns submitted from outside in, as
     * flooded ones do.
     *
     * @return whether the turn is to be submitted again rather than released
     */
    public boolean looksAgainAfterDraining() {
        return ownWorker() != null && ForkJoinTask.getQueuedTaskCount() > 0 && !executor.isShutdown();
    }

    /**
     * A turn used its whole throughput and its actor has more to do (or it drained its queues and looks once more, see
     * {@link #looksAgainAfterDraining}); its next turn is about to be submitted. A fork-join worker runs the tasks of
     * its own queue before it looks at tasks submitted from outside the pool, so an actor whose turns only resubmitted
     * themselves could keep the thread from an actor told by a transport thread for as long as its own messages kept
     * coming. So on this dispatcher's own worker, the first {@value #SUBMISSIONS_EVERY}th full turn once {@link
     * #SUBMISSIONS_INTERVAL_NANOS} has passed since the worker last did so first moves the turns waiting as
     * submissions (up to {@value #MAX_SUBMISSIONS_MOVED}) onto the worker's queue, ahead of the next turn: a turn told
     * from outside waits about that interval and a bounded number of turns. Not at every full turn, nor at every
     * {@value #SUBMISSIONS_EVERY}th: taking from the submission queues, which the producers are writing to, made
     * the runs of many actors told from outside the pool a sixth slower, even when done eight times less often
     * (BENCHMARKS.md, "Fork-join fairness" and "Submissions let in once a millisecond").
     */
    public void fullTurnEnded() {
        DispatcherWorkerThread worker = ownWorker();
        if (worker != null && worker.fullTurnLetsSubmissionsIn(nanoClock)) {
            int moved = 0;
            ForkJoinTask<?> waiting;
            while (moved < MAX_SUBMISSIONS_MOVED && (waiting = Submissions.poll()) != null) {
                waiting.fork();
                moved++;
            }
        }
    }

    /**
     * @return whether the current thread is one of this dispatcher's: known for fork-join pools and for executors whose
     *     threads come from a {@link NamedThreadFactory} (every kind the runtime builds but virtual threads)
     */
    public boolean ownsCurrentThread() {
        Thread current = Thread.currentThread();
        if (forkJoin) {
            return current instanceof ForkJoinWorkerThread worker && worker.getPool() == executor;
        }
        return threadFactory != null && threadFactory.made(current);
    }

    /** @return the current thread when it is a worker of this dispatcher's fork-join pool, otherwise null */
    private DispatcherWorkerThread ownWorker() {
        return forkJoin && Thread.currentThread() instanceof DispatcherWorkerThread worker && worker.getPool() == executor
                ? worker : null;
    }

    /** Reaches {@link ForkJoinTask}'s protected {@code pollSubmission} for the current worker's pool. */
    private abstract static class Submissions extends ForkJoinTask<Void> {
        private static final long serialVersionUID = 1L;

        static ForkJoinTask<?> poll() {
            return pollSubmission();
        }
    }

    /** Counts one finished actor turn: in the running thread's own cell when it has one, so nothing is shared. */
    public void turnCompleted() {
        Thread current = Thread.currentThread();
        if (current instanceof DispatcherWorkerThread worker) {
            worker.countTurn();
        } else if (current instanceof DispatcherThread thread) {
            thread.countTurn();
        } else {
            completedTurns.increment();
        }
    }

    /** @return turns run so far */
    public long getCompletedTurns() {
        NamedThreadFactory factory = threadFactory;
        return completedTurns.sum() + (factory == null ? 0 : factory.completedTurns());
    }

    /** @return live actors on this dispatcher */
    public int getActorCount() {
        return actors.get();
    }

    /** Counts an actor created on this dispatcher. */
    public void actorAdded() {
        actors.incrementAndGet();
    }

    /** Counts an actor of this dispatcher destroyed. */
    public void actorRemoved() {
        actors.decrementAndGet();
    }

    /** @return threads currently in the pool, or -1 when the executor does not say */
    public int getThreads() {
        if (executor instanceof ForkJoinPool fj) {
            return fj.getPoolSize();
        } else if (executor instanceof ThreadPoolExecutor tpe) {
            return tpe.getPoolSize();
        }
        return -1;
    }

    /** @return threads running a task now, or -1 when the executor does not say */
    public int getActiveThreads() {
        if (executor instanceof ForkJoinPool fj) {
            return fj.getActiveThreadCount();
        } else if (executor instanceof ThreadPoolExecutor tpe) {
            return tpe.getActiveCount();
        }
        return -1;
    }

    /** @return tasks waiting for a thread, or -1 when the executor does not say */
    public long getQueuedTasks() {
        if (executor instanceof ForkJoinPool fj) {
            return fj.getQueuedSubmissionCount() + fj.getQueuedTaskCount();
        } else if (executor instanceof ThreadPoolExecutor tpe) {
            return tpe.getQueue().size();
        }
        return -1;
    }

    /** @return whether the executor has terminated */
    public boolean isTerminated() {
        return executor.isTerminated();
    }

    @Override
    public String toString() {
        return "Dispatcher{" + name + ", " + kind.label() + ", poolSize=" + poolSize + '}';
    }
}
