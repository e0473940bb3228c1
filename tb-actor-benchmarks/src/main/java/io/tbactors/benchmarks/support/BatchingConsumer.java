package io.tbactors.benchmarks.support;

import java.util.Queue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A thread that serves one queue and nothing else: the bare handoff the limits are made of. When the queue is empty
 * it parks briefly instead of spinning, so the producer runs ahead and the consumer then drains a backlog: producer
 * and consumer do not fight over the same queue node for every message (which an eager spinning consumer does, and
 * which makes such a "limit" swing by a factor of three with the scheduling). This is the best case of the handoff,
 * which is what a limit should be.
 *
 * @param <T> what the queue carries
 */
public final class BatchingConsumer<T> implements AutoCloseable {

    private static final long IDLE_PARK_NANOS = 20_000;

    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts the thread.
     *
     * @param name the thread's name
     * @param queue the queue it polls
     * @param handler what it does with each element
     */
    public BatchingConsumer(String name, Queue<T> queue, Consumer<T> handler) {
        thread = new Thread(() -> serve(queue, handler), name);
        thread.setDaemon(true);
        thread.start();
    }

    private void serve(Queue<T> queue, Consumer<T> handler) {
        while (running) {
            T element = queue.poll();
            if (element == null) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            } else {
                handler.accept(element);
            }
        }
    }

    /** Stops the thread and waits for it. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
