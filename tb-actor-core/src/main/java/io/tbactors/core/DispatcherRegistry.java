package io.tbactors.core;

import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.Dispatchers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The named dispatchers of an actor system: creating, looking up, bounding and destroying them. */
final class DispatcherRegistry {

    private static final Logger log = LoggerFactory.getLogger(DispatcherRegistry.class);

    /** How long a stop waits for an executor's {@code shutdownNow} once its timeout is over. */
    private static final long SHUTDOWN_NOW_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final ActorRuntime runtime;
    private final ConcurrentMap<String, Dispatcher> dispatchers = new ConcurrentHashMap<>();

    DispatcherRegistry(ActorRuntime runtime) {
        this.runtime = runtime;
    }

    void create(String dispatcherId, ExecutorService executor) {
        Objects.requireNonNull(executor, "executor must not be null");
        register(new Dispatcher(requireName(dispatcherId), executor, DispatcherKind.CUSTOM, poolSizeOf(executor),
                runtime::nanoTime));
    }

    Dispatcher create(String dispatcherId, DispatcherKind kind, int poolSize) {
        String name = requireName(dispatcherId);
        if (dispatchers.containsKey(name)) {
            throw duplicate(name);
        }
        ExecutorService executor = Dispatchers.create(name, kind, poolSize);
        DispatcherKind effective = kind == DispatcherKind.FORK_JOIN && poolSize == 1 ? DispatcherKind.SINGLE : kind;
        int effectivePool = switch (effective) {
            case SINGLE -> 1;
            case VIRTUAL -> 0;
            default -> poolSize;
        };
        Dispatcher dispatcher = new Dispatcher(name, executor, effective, effectivePool, runtime::nanoTime);
        try {
            register(dispatcher);
        } catch (IllegalArgumentException e) {
            executor.shutdownNow();
            throw e;
        }
        return dispatcher;
    }

    private void register(Dispatcher dispatcher) {
        runtime.ensureRunning("create a dispatcher");
        if (dispatchers.putIfAbsent(dispatcher.getName(), dispatcher) != null) {
            throw duplicate(dispatcher.getName());
        }
    }

    private static IllegalArgumentException duplicate(String name) {
        return new IllegalArgumentException("Dispatcher '" + name + "' is already registered; destroy it first or pick another name");
    }

    static String requireName(String dispatcherId) {
        if (dispatcherId == null || dispatcherId.isBlank()) {
            throw new IllegalArgumentException("Dispatcher name must not be null or blank");
        }
        return dispatcherId;
    }

    private static int poolSizeOf(ExecutorService executor) {
        if (executor instanceof ForkJoinPool fj) {
            return fj.getParallelism();
        } else if (executor instanceof ThreadPoolExecutor tpe) {
            return tpe.getMaximumPoolSize();
        }
        return 0;
    }

    /** @return the dispatcher with that name, or null */
    Dispatcher get(String dispatcherId) {
        return dispatchers.get(dispatcherId);
    }

    /** @return the dispatcher with that name @throws IllegalArgumentException naming the registered ones */
    Dispatcher require(String dispatcherId) {
        Dispatcher dispatcher = dispatchers.get(requireName(dispatcherId));
        if (dispatcher == null) {
            throw unknown(dispatcherId);
        }
        return dispatcher;
    }

    /** @return the registered dispatchers' names, sorted */
    TreeSet<String> names() {
        return new TreeSet<>(dispatchers.keySet());
    }

    /** @return the dispatcher whose thread the caller runs on, as far as it can be told, or null */
    Dispatcher ofCurrentThread() {
        for (Dispatcher dispatcher : dispatchers.values()) {
            if (dispatcher.ownsCurrentThread()) {
                return dispatcher;
            }
        }
        return null;
    }

    Collection<Dispatcher> all() {
        return dispatchers.values();
    }

    void setMailboxBound(String dispatcherId, TbMailboxBound bound) {
        require(dispatcherId).setMailboxBound(bound);
    }

    void setPaddedMailboxes(String dispatcherId, boolean padded) {
        require(dispatcherId).setPaddedMailboxes(padded);
    }

    /** Stops the dispatcher's actors, lets their queued turns run, then shuts its executor down, within the timeout. */
    void destroy(String dispatcherId) {
        Dispatcher dispatcher = dispatchers.remove(dispatcherId);
        if (dispatcher == null) {
            throw unknown(dispatcherId);
        }
        long deadline = System.nanoTime() + runtime.settings.getShutdownTimeout().toNanos();
        List<TbActorMailbox> onIt = new ArrayList<>();
        for (TbActorMailbox mailbox : runtime.actors.allNotDestroyed()) {
            if (mailbox.dispatcher() == dispatcher) {
                onIt.add(mailbox);
                ActorStop.stop(mailbox, TbActorStopReason.STOPPED, null);
            }
        }
        for (TbActorMailbox mailbox : onIt) {
            while (!mailbox.isDestroyed() && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        dispatcher.getExecutor().shutdown();
        if (!awaitTermination(dispatcher.getExecutor(), deadline)) {
            log.warn("Dispatcher '{}' did not end within {}; its threads were interrupted", dispatcherId,
                    runtime.settings.getShutdownTimeout());
            for (TbActorMailbox mailbox : onIt) {
                if (!mailbox.isDestroyed()) {
                    SystemShutdown.reportGivenUp(mailbox, "dispatcher '" + dispatcherId + "' was destroyed");
                }
            }
        }
    }

    IllegalArgumentException unknown(String dispatcherId) {
        return new IllegalArgumentException("Dispatcher '" + dispatcherId + "' is not registered; registered: " + names());
    }

    /** @return whether the executor ended by the deadline; if not, it is interrupted */
    static boolean awaitTermination(ExecutorService executor, long deadline) {
        try {
            long remaining = Math.max(0, deadline - System.nanoTime());
            if (executor.awaitTermination(remaining, TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        shutdownNowWithin(executor, SHUTDOWN_NOW_GRACE_NANOS);
        return false;
    }

    /** Turns a thread pool dropped unrun go back to their actors (a fork-join pool cancels them instead). */
    private static void handBack(List<Runnable> dropped) {
        for (Runnable task : dropped) {
            if (task instanceof MailboxTask turn) {
                turn.turnNotRun();
            }
        }
    }

    /**
     * Calls {@code shutdownNow} on a thread of its own and waits for it no longer than {@code graceNanos}: a fork-join
     * pool's {@code shutdownNow} cancels queued tasks until it finds none, so a worker that keeps queueing tasks can
     * keep it from returning, and the stop must return whatever a worker does.
     */
    static void shutdownNowWithin(ExecutorService executor, long graceNanos) {
        Thread interrupter = new Thread(() -> handBack(executor.shutdownNow()), "tb-actors-shutdown-now");
        interrupter.setDaemon(true);
        interrupter.start();
        try {
            TimeUnit.NANOSECONDS.timedJoin(interrupter, graceNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (interrupter.isAlive()) {
            log.warn("An executor's shutdownNow() did not return within {} ms: its workers keep running tasks; "
                    + "the stop goes on without waiting for them", TimeUnit.NANOSECONDS.toMillis(graceNanos));
        }
    }
}
