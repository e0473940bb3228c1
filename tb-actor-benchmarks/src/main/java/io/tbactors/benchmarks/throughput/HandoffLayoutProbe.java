package io.tbactors.benchmarks.throughput;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.jctools.queues.MpscLinkedQueue;

/**
 * Where a linked queue's head and tail live, and what it does to the handoff: one producer thread offers 1M messages
 * and the main thread polls them, with no actor runtime around, through the same linked algorithm (a producer swaps
 * its node in as the tail and links the old tail to it; the consumer follows the links, takes the value and links the
 * node it leaves to itself) laid out five ways:
 * <ul>
 *   <li>{@code inline}: head and tail as two fields of one small object, as in our mailbox;</li>
 *   <li>{@code cells}: the tail and the head each in a padded object of its own, referenced from the queue;</li>
 *   <li>{@code padded}: one object, the tail and the head 128 bytes of padding apart from each other and from the
 *       object's ends;</li>
 *   <li>{@code apart}: one object, the tail first and the head 64 bytes after it, no padding around them (an object
 *       the size of a mailbox);</li>
 *   <li>{@code jctools}: JCTools' {@code MpscLinkedQueue} with {@code relaxedPoll}.</li>
 * </ul>
 * The consumer never waits for a link: an unlinked next node reads as empty for all five. Prints the median and the
 * fastest of the rounds after the first third. One layout per JVM, so that the JIT compiles each alone:
 * {@code for l in inline cells padded apart jctools; do java -Xms2g -Xmx2g -Xmn1g -XX:+AlwaysPreTouch -cp
 * tb-actor-benchmarks/target/benchmarks.jar io.tbactors.benchmarks.throughput.HandoffLayoutProbe $l 30; done}.
 * A probe for BENCHMARKS.md ("The tail's cache line"), not a JMH benchmark.
 */
public final class HandoffLayoutProbe {

    private static final int MESSAGES = 1_000_000;
    private static final Object MESSAGE = new Object();

    private HandoffLayoutProbe() {
    }

    /** The handoff under test. */
    interface Handoff {
        void offer(Object e);

        /** @return the next element, or null when the next node is not linked yet */
        Object poll();
    }

    /** A link of the queue. */
    static final class Node {
        private static final VarHandle NEXT;

        static {
            try {
                NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private volatile Node next;
        private Object value;

        Node(Object value) {
            this.value = value;
        }

        Node next() {
            return (Node) NEXT.getAcquire(this);
        }

        void link(Node successor) {
            NEXT.setRelease(this, successor);
        }

        /** @return the value, which the node no longer holds */
        Object take() {
            Object v = value;
            value = null;
            return v;
        }
    }

    /** Head and tail side by side in one small object. */
    static final class Inline implements Handoff {
        private static final VarHandle TAIL;

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(Inline.class, "tail", Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private volatile Node tail;
        private Node head;

        Inline() {
            Node stub = new Node(null);
            head = stub;
            tail = stub;
        }

        @Override
        public void offer(Object e) {
            Node node = new Node(e);
            ((Node) TAIL.getAndSet(this, node)).link(node);
        }

        @Override
        public Object poll() {
            Node h = head;
            Node next = h.next();
            if (next == null) {
                return null;
            }
            Object v = next.take();
            h.link(h);
            head = next;
            return v;
        }
    }

    /** 128 bytes of padding. */
    static class PadA {
        long a00;
        long a01;
        long a02;
        long a03;
        long a04;
        long a05;
        long a06;
        long a07;
        long a08;
        long a09;
        long a10;
        long a11;
        long a12;
        long a13;
        long a14;
        long a15;
    }

    /** The tail's field. */
    static class TailField extends PadA {
        volatile Node tail;
    }

    /** The tail, padded on both sides. */
    static final class TailCell extends TailField {
        long b00;
        long b01;
        long b02;
        long b03;
        long b04;
        long b05;
        long b06;
        long b07;
        long b08;
        long b09;
        long b10;
        long b11;
        long b12;
        long b13;
        long b14;
        long b15;
    }

    /** The head's field. */
    static class HeadField extends PadA {
        Node head;
    }

    /** The head, padded on both sides. */
    static final class HeadCell extends HeadField {
        long b00;
        long b01;
        long b02;
        long b03;
        long b04;
        long b05;
        long b06;
        long b07;
        long b08;
        long b09;
        long b10;
        long b11;
        long b12;
        long b13;
        long b14;
        long b15;
    }

    /** Tail and head each in a padded object of its own. */
    static final class Cells implements Handoff {
        private static final VarHandle TAIL;

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(TailField.class, "tail", Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final TailCell tailCell = new TailCell();
        private final HeadCell headCell = new HeadCell();

        Cells() {
            Node stub = new Node(null);
            headCell.head = stub;
            tailCell.tail = stub;
        }

        @Override
        public void offer(Object e) {
            Node node = new Node(e);
            ((Node) TAIL.getAndSet(tailCell, node)).link(node);
        }

        @Override
        public Object poll() {
            HeadCell c = headCell;
            Node h = c.head;
            Node next = h.next();
            if (next == null) {
                return null;
            }
            Object v = next.take();
            h.link(h);
            c.head = next;
            return v;
        }
    }

    /** Padding after the tail. */
    static class PaddedTail extends TailField {
        long c00;
        long c01;
        long c02;
        long c03;
        long c04;
        long c05;
        long c06;
        long c07;
        long c08;
        long c09;
        long c10;
        long c11;
        long c12;
        long c13;
        long c14;
        long c15;
    }

    /** The head after the tail's padding. */
    static class PaddedHead extends PaddedTail {
        Node head;
    }

    /** One object: tail and head apart, as JCTools lays its queues out. */
    static final class Padded extends PaddedHead implements Handoff {
        private static final VarHandle TAIL;

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(TailField.class, "tail", Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        long d00;
        long d01;
        long d02;
        long d03;
        long d04;
        long d05;
        long d06;
        long d07;
        long d08;
        long d09;
        long d10;
        long d11;
        long d12;
        long d13;
        long d14;
        long d15;

        Padded() {
            Node stub = new Node(null);
            head = stub;
            tail = stub;
        }

        @Override
        public void offer(Object e) {
            Node node = new Node(e);
            ((Node) TAIL.getAndSet(this, node)).link(node);
        }

        @Override
        public Object poll() {
            Node h = head;
            Node next = h.next();
            if (next == null) {
                return null;
            }
            Object v = next.take();
            h.link(h);
            head = next;
            return v;
        }
    }

    /** The tail first. */
    static class ApartTail {
        volatile Node tail;
    }

    /** 64 bytes after the tail. */
    static class ApartGap extends ApartTail {
        long e00;
        long e01;
        long e02;
        long e03;
        long e04;
        long e05;
        long e06;
        long e07;
    }

    /** One object: the tail, 64 bytes, the head; no padding around (the size of a mailbox). */
    static final class Apart extends ApartGap implements Handoff {
        private static final VarHandle TAIL;

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(ApartTail.class, "tail", Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private Node head;

        Apart() {
            Node stub = new Node(null);
            head = stub;
            tail = stub;
        }

        @Override
        public void offer(Object e) {
            Node node = new Node(e);
            ((Node) TAIL.getAndSet(this, node)).link(node);
        }

        @Override
        public Object poll() {
            Node h = head;
            Node next = h.next();
            if (next == null) {
                return null;
            }
            Object v = next.take();
            h.link(h);
            head = next;
            return v;
        }
    }

    /** JCTools' queue. */
    static final class JcTools implements Handoff {
        private final MpscLinkedQueue<Object> queue = new MpscLinkedQueue<>();

        @Override
        public void offer(Object e) {
            queue.offer(e);
        }

        @Override
        public Object poll() {
            return queue.relaxedPoll();
        }
    }

    static Handoff create(String layout) {
        return switch (layout) {
            case "inline" -> new Inline();
            case "cells" -> new Cells();
            case "padded" -> new Padded();
            case "apart" -> new Apart();
            case "jctools" -> new JcTools();
            default -> throw new IllegalArgumentException("layout must be inline, cells, padded, apart or jctools, got '" + layout + "'");
        };
    }

    /** @return nanoseconds to hand {@code messages} over from a fresh producer thread to this one */
    static long round(Handoff handoff, int messages) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        Thread producer = new Thread(() -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int i = 0; i < messages; i++) {
                handoff.offer(MESSAGE);
            }
        }, "producer");
        producer.start();
        long start = System.nanoTime();
        go.countDown();
        int received = 0;
        while (received < messages) {
            if (handoff.poll() != null) {
                received++;
            } else {
                Thread.onSpinWait();
            }
        }
        long took = System.nanoTime() - start;
        producer.join();
        return took;
    }

    /**
     * @param args the layout ({@code inline}, {@code cells}, {@code padded}, {@code apart} or {@code jctools}) and the rounds
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2 || !args[1].matches("[1-9][0-9]*")) {
            throw new IllegalArgumentException("usage: HandoffLayoutProbe LAYOUT ROUNDS (LAYOUT: inline, cells, padded, apart or jctools)");
        }
        int rounds = Integer.parseInt(args[1]);
        List<Long> times = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            times.add(round(create(args[0]), MESSAGES));
        }
        List<Long> measured = new ArrayList<>(times.subList(rounds / 3, rounds));
        Collections.sort(measured);
        System.out.printf(Locale.ROOT, "%-8s 1M messages, one producer: median %.1f ms, fastest %.1f ms (%d rounds after %d of warm-up)%n",
                args[0], measured.get(measured.size() / 2) / 1e6, measured.get(0) / 1e6, measured.size(), rounds / 3);
    }
}
