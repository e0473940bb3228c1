package io.tbactors.benchmarks.throughput;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.Objects;

/**
 * A candidate for the mailbox, measured in {@link MailboxQueueBenchmark}: a linked multi-producer single-consumer
 * queue with no padding, so an actor's queue stays a few dozen bytes. A producer swaps itself in as the tail (one
 * atomic exchange, never a retry) and then links the old tail to its node; the single consumer follows the links and
 * needs no atomic operation at all. Between a producer's exchange and its link the queue is not empty but its next
 * node is not reachable yet: {@link #poll} then waits for the link (a few instructions away), so a consumer that saw
 * the tail move never reports the queue empty. Only one thread may poll at a time.
 *
 * @param <E> the elements
 */
final class UnpaddedMpscQueue<E> extends AbstractQueue<E> {

    private static final VarHandle TAIL;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(UnpaddedMpscQueue.class, "tail", Node.class);
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Node<E> {
        private volatile Node<E> next;
        private E value;

        Node(E value) {
            this.value = value;
        }
    }

    private volatile Node<E> tail;
    // the consumer's: the node before the first element
    private Node<E> head;

    UnpaddedMpscQueue() {
        Node<E> stub = new Node<>(null);
        head = stub;
        tail = stub;
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean offer(E e) {
        Node<E> node = new Node<>(Objects.requireNonNull(e, "element"));
        Node<E> previous = (Node<E>) TAIL.getAndSet(this, node);
        NEXT.setRelease(previous, node);
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        Node<E> h = head;
        Node<E> next = (Node<E>) NEXT.getAcquire(h);
        if (next == null) {
            if (h == tail) {
                return null;
            }
            do {
                Thread.onSpinWait();
                next = (Node<E>) NEXT.getAcquire(h);
            } while (next == null);
        }
        E value = next.value;
        next.value = null;
        head = next;
        return value;
    }

    @Override
    public E peek() {
        throw new UnsupportedOperationException("not needed by the benchmark");
    }

    @Override
    public boolean isEmpty() {
        return head == tail;
    }

    @Override
    public int size() {
        throw new UnsupportedOperationException("not needed by the benchmark");
    }

    @Override
    public Iterator<E> iterator() {
        throw new UnsupportedOperationException("not needed by the benchmark");
    }
}
