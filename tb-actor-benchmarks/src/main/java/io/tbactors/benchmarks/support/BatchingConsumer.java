package io.tbactors.benchmarks.support;

import java.util.Queue;
import org.jctools.queues.MessagePassingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A thread that serves one queue and nothing else: the bare handoff the limits are made of. When the queue is empty
 * it parks briefly instead of spinning, so the producer runs ahead and the consumer then drains a backlog: producer
 * and consumer do not fight over the same queue node for every message (which an eager spinning consumer does, and
 * which makes such a "limit" swing by a factor of three with the scheduling). This is the best case of the handoff,
 * which is what a limit should be. Given a JCTools {@link MessagePassingQueue} it takes the backlog in batches
 * ({@link MessagePassingQueue#drain(MessagePassingQueue.Consumer, int)}: no per-element volatile read of the
 * consumer index, one release of it per batch).
 *
 * @param <T> what the queue carries
 */
public final class BatchingConsumer<T> implements AutoCloseable {

    private static final long IDLE_PARK_NANOS = 20_000;
    /** Elements a batched drain takes at most before it looks at {@code running} again. */
    private static final int DRAIN_BATCH = 4096;

    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts the thread, which polls one element at a time.
     *
     * @param name the thread's name
     * @param queue the queue it polls
     * @param handler what it does with each element
     */
    public BatchingConsumer(String name, Queue<T> queue, Consumer<T> handler) {
        this(name, queue, handler, false);
    }

    /**
     * Starts the thread.
     *
     * @param name the thread's name
     * @param queue the queue it polls
     * @param handler what it does with each element
     * @param drainInBatches take the backlog with JCTools' batched drain (the queue must be a
     *     {@link MessagePassingQueue})
     */
    @SuppressWarnings("unchecked") // checked by the instanceof: a JCTools queue of the same elements
    public BatchingConsumer(String name, Queue<T> queue, Consumer<T> handler, boolean drainInBatches) {
        if (drainInBatches && !(queue instanceof MessagePassingQueue)) {
            throw new IllegalArgumentException("a batched drain needs a JCTools MessagePassingQueue, got " + queue.getClass().getName());
        }
        thread = new Thread(() -> {
            if (drainInBatches) {
                serveInBatches((MessagePassingQueue<T>) queue, handler);
            } else {
                serve(queue, handler);
            }
        }, name);
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

    private void serveInBatches(MessagePassingQueue<T> queue, Consumer<T> handler) {
        MessagePassingQueue.Consumer<T> each = handler::accept;
        while (running) {
            if (queue.drain(each, DRAIN_BATCH) == 0) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
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
