package io.tbactors.benchmarks.support;

import java.util.Queue;
import java.util.function.Consumer;

/**
 * A thread that serves one queue and nothing else: the bare handoff the limits are made of. It waits by
 * {@link SpinThenPark}, so a message in flight is picked up without a wake-up.
 *
 * @param <T> what the queue carries
 */
public final class SpinningConsumer<T> implements AutoCloseable {

    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts the thread.
     *
     * @param name the thread's name
     * @param queue the queue it polls
     * @param handler what it does with each element
     */
    public SpinningConsumer(String name, Queue<T> queue, Consumer<T> handler) {
        thread = new Thread(() -> serve(queue, handler), name);
        thread.setDaemon(true);
        thread.start();
    }

    private void serve(Queue<T> queue, Consumer<T> handler) {
        SpinThenPark idle = new SpinThenPark();
        while (running) {
            T element = queue.poll();
            if (element == null) {
                idle.idle();
            } else {
                idle.reset();
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
