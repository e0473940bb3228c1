package io.tbactors.benchmarks.throughput;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.ThreadStates;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Dedicated producer threads, standing for transport threads. Each round splits the messages into one contiguous
 * range per producer; message {@code j} goes to actor {@code j % actors}, so every producer walks over all actors
 * in turn, as messages from many devices arrive interleaved.
 */
final class Producers implements AutoCloseable {

    private final int count;
    private final ExecutorService threads;
    private final List<Future<?>> round = new ArrayList<>();

    Producers(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("At least one producer, got " + count);
        }
        this.count = count;
        AtomicInteger index = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, "producer-" + index.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts a round and returns at once; the target's completion tells when every message was processed.
     *
     * @param target where to send
     * @param shape how many actors and messages
     */
    void startRound(ThroughputTarget target, Shape shape) {
        round.clear();
        long total = shape.totalMessages();
        for (int p = 0; p < count; p++) {
            long from = total * p / count;
            long to = total * (p + 1) / count;
            round.add(threads.submit(() -> send(target, shape.actors(), from, to)));
        }
    }

    /**
     * Runs one round and waits for it: every actor receives its share, and the round ends when the last actor counted
     * its last one.
     *
     * @param target where to send
     * @param shape how many actors and messages
     * @param completion armed for the round, counted down by the target's actors
     */
    void runRound(ThroughputTarget target, Shape shape, Completion completion) {
        completion.arm(shape.actors());
        startRound(target, shape);
        completion.await(() -> failures() + target.diagnostics() + System.lineSeparator() + ThreadStates.dump());
    }

    /**
     * Stops the producers, then the target; either may be null when the set-up failed before it was made.
     *
     * @param producers the producer threads
     */
    static void closeBoth(Producers producers, ThroughputTarget target) {
        if (producers != null) {
            producers.close();
        }
        if (target != null) {
            target.close();
        }
    }

    private static void send(ThroughputTarget target, int actors, long from, long to) {
        int actor = (int) (from % actors);
        for (long j = from; j < to; j++) {
            target.tell(actor);
            if (++actor == actors) {
                actor = 0;
            }
        }
    }

    /** @return why a producer of the last round failed, or an empty string */
    String failures() {
        StringBuilder failures = new StringBuilder();
        for (Future<?> producer : round) {
            if (producer.isDone()) {
                try {
                    producer.get();
                } catch (ExecutionException e) {
                    failures.append("producer failed: ").append(e.getCause()).append("; ");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return failures.toString();
    }

    @Override
    public void close() {
        threads.shutdownNow();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
