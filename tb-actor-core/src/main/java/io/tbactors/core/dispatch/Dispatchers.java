package io.tbactors.core.dispatch;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Factory for the usual dispatcher executors, with named threads.
 */
public final class Dispatchers {

    private static final Method OF_VIRTUAL = findOfVirtual();

    private Dispatchers() {
    }

    /**
     * Creates an executor of the given kind.
     *
     * @param name thread name prefix
     * @param kind the kind; {@link DispatcherKind#CUSTOM} is not made here
     * @param poolSize threads for {@link DispatcherKind#FORK_JOIN}, at least 1; ignored by the other kinds
     * @return the executor
     */
    public static ExecutorService create(String name, DispatcherKind kind, int poolSize) {
        Objects.requireNonNull(kind, "kind must not be null");
        return switch (kind) {
            case FORK_JOIN -> forkJoin(name, poolSize);
            case SINGLE -> singleThread(name);
            case VIRTUAL -> virtual(name);
            case CUSTOM -> throw new IllegalArgumentException(
                    "A custom dispatcher needs its own executor: use createDispatcher(name, executor)");
        };
    }

    /**
     * A FIFO work-stealing pool. With one thread it is a {@link #singleThread(String) single thread} instead,
     * because a fork-join pool of parallelism 1 may add compensation threads and loses FIFO order between tasks.
     *
     * @param name thread name prefix
     * @param parallelism threads, at least 1
     * @return the executor
     */
    public static ExecutorService forkJoin(String name, int parallelism) {
        requireName(name);
        if (parallelism < 1) {
            throw new IllegalArgumentException("Dispatcher '" + name + "': pool size must be >= 1, got " + parallelism);
        }
        if (parallelism == 1) {
            return singleThread(name);
        }
        return new ForkJoinPool(parallelism, new NamedThreadFactory(name), NamedThreadFactory.loggingHandler(), true);
    }

    /**
     * @param name thread name prefix
     * @return one plain thread with an unbounded queue
     */
    public static ExecutorService singleThread(String name) {
        requireName(name);
        return new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), new NamedThreadFactory(name));
    }

    /** @return whether this JVM has virtual threads (Java 21+) */
    public static boolean virtualThreadsAvailable() {
        return OF_VIRTUAL != null;
    }

    /**
     * @param name thread name prefix
     * @return an executor that starts a named virtual thread per task
     * @throws UnsupportedOperationException on a JVM older than 21
     */
    public static ExecutorService virtual(String name) {
        requireName(name);
        if (OF_VIRTUAL == null) {
            throw new UnsupportedOperationException("Dispatcher '" + name + "': virtual threads need Java 21 or newer, this JVM is "
                    + Runtime.version().feature() + "; use fork-join or single");
        }
        try {
            // resolve through the public Thread.Builder interface: the implementation classes are not accessible
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            Object builder = OF_VIRTUAL.invoke(null);
            Object named = builderType.getMethod("name", String.class, long.class).invoke(builder, name + "-", 1L);
            ThreadFactory factory = (ThreadFactory) builderType.getMethod("factory").invoke(named);
            Method perTask = Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class);
            return (ExecutorService) perTask.invoke(null, factory);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Could not create a virtual-thread executor for dispatcher '" + name + "'", e);
        }
    }

    private static void requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("Dispatcher name must not be blank");
        }
    }

    private static Method findOfVirtual() {
        try {
            return Thread.class.getMethod("ofVirtual");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
