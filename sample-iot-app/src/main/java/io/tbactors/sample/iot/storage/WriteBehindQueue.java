package io.tbactors.sample.iot.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import lombok.extern.slf4j.Slf4j;
import org.springframework.core.NestedExceptionUtils;

/**
 * A bounded write-behind queue for one table, as ThingsBoard's SQL queues: callers add rows, one writer thread
 * takes them in batches and writes each batch in one transaction. A batch is written when it has {@code batchSize}
 * rows, or {@code maxDelay} after its first row was added, whichever comes first (and at once when the queue
 * stops). Rows are written in the order they were added, by one thread, so a later row for the same key is never
 * written before an earlier one.
 *
 * <p>Each {@link #add} answers a future that completes when the row's batch is committed, or exceptionally when
 * the batch failed (every row of a failed batch fails with the batch's error), when the queue is full, or when it
 * has stopped. Nothing is dropped silently.
 *
 * <p>The queue holds at most {@code capacity} rows. An {@link #add} to a full queue waits up to
 * {@code offerTimeout} for room (back-pressure on the caller), then fails with {@link QueueFullException}.
 *
 * @param <T> the row type
 */
@Slf4j
public final class WriteBehindQueue<T> {

    /**
     * Writes one batch, in order, in one transaction; throws when the transaction did not commit. A writer that could
     * commit only some rows throws {@link RowsRejectedException} naming the others: only their saves fail.
     */
    @FunctionalInterface
    public interface BatchWriter<T> {

        /**
         * @param rows the batch, in the order the rows were added
         * @throws RowsRejectedException when every row but the ones it names was committed
         * @throws Exception when the batch was not committed
         */
        void write(List<T> rows) throws Exception;
    }

    /** Thrown by a {@link BatchWriter} that committed every row of its batch except the ones it names. */
    public static final class RowsRejectedException extends Exception {

        private static final long serialVersionUID = 1L;

        private final transient Map<Integer, Throwable> rejected;

        /** @param rejected index in the batch of each row that was not committed, with the reason */
        public RowsRejectedException(Map<Integer, Throwable> rejected) {
            super(rejected.size() + " row(s) rejected", null, false, false);
            this.rejected = Map.copyOf(rejected);
        }

        /** @return index in the batch of each row that was not committed, with the reason */
        public Map<Integer, Throwable> getRejected() {
            return rejected;
        }
    }

    /** The queue was full for longer than its offer timeout. */
    public static final class QueueFullException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        QueueFullException(String message) {
            super(message);
        }
    }

    private record Entry<T>(T row, CompletableFuture<Void> done, long addedNanos) {
    }

    private static final Entry<Object> STOP = new Entry<>(null, null, 0);

    private final String name;
    private final int batchSize;
    private final long maxDelayNanos;
    private final long offerTimeoutNanos;
    private final BatchWriter<T> writer;
    private final BlockingQueue<Entry<T>> queue;
    private final Thread thread;
    private final LongAdder refused = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder failedBatches = new LongAdder();
    private final LongAdder rowsWritten = new LongAdder();
    private final LongAdder rejectedRows = new LongAdder();
    private volatile boolean stopped;

    /**
     * @param name the queue's name, used in its thread's name, errors and meters (e.g. the table)
     * @param capacity most rows waiting
     * @param batchSize most rows in one batch
     * @param maxDelay longest time a row waits for its batch to fill
     * @param offerTimeout longest time an {@link #add} waits for room in a full queue
     * @param writer writes a batch
     */
    public WriteBehindQueue(String name, int capacity, int batchSize, Duration maxDelay, Duration offerTimeout,
                            BatchWriter<T> writer) {
        if (capacity < 1 || batchSize < 1) {
            throw new IllegalArgumentException("capacity and batch size must be at least 1, got " + capacity + " and " + batchSize);
        }
        this.name = name;
        this.batchSize = batchSize;
        this.maxDelayNanos = maxDelay.toNanos();
        this.offerTimeoutNanos = offerTimeout.toNanos();
        this.writer = writer;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::run, "write-behind-" + name);
        this.thread.setDaemon(true);
    }

    /** Starts the writer thread. */
    public void start() {
        thread.start();
    }

    /**
     * Queues a row.
     *
     * @return completes when the row's batch is committed; fails when it was not, or the row was refused
     */
    public CompletableFuture<Void> add(T row) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (stopped) {
            done.completeExceptionally(new IllegalStateException("write queue '" + name + "' is stopped"));
            return done;
        }
        boolean queued;
        try {
            Entry<T> entry = new Entry<>(row, done, System.nanoTime());
            queued = queue.offer(entry) || offerWithin(entry);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            queued = false;
        }
        if (!queued) {
            refused.increment();
            done.completeExceptionally(new QueueFullException("write queue '" + name + "' is full ("
                    + queue.size() + " rows waiting); row refused after waiting "
                    + Duration.ofNanos(offerTimeoutNanos)));
        }
        return done;
    }

    /** Waits for room: the writer signals when it has taken a batch. */
    private boolean offerWithin(Entry<T> entry) throws InterruptedException {
        long deadline = System.nanoTime() + offerTimeoutNanos;
        synchronized (this) {
            while (!queue.offer(entry)) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || stopped) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }

    /**
     * Stops taking rows, writes every row already queued, and waits for the writer thread to end.
     *
     * @param timeout longest wait for the writer thread
     * @return whether the writer ended within the timeout
     */
    @SuppressWarnings("unchecked")
    public boolean stop(Duration timeout) {
        stopped = true;
        synchronized (this) {
            notifyAll();
        }
        if (thread.isAlive()) {
            try {
                long deadline = System.nanoTime() + timeout.toNanos();
                if (queue.offer((Entry<T>) (Entry<?>) STOP, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                    TimeUnit.NANOSECONDS.timedJoin(thread, Math.max(1, deadline - System.nanoTime()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (thread.isAlive()) {
            log.warn("Write queue '{}' did not finish within {}: {} row(s) still waiting", name, timeout, queue.size());
            return false;
        }
        // rows added while the writer was ending (after its last look at the queue) are failed, not dropped
        List<Entry<T>> left = new ArrayList<>();
        queue.drainTo(left);
        left.stream().filter(entry -> entry != STOP)
                .forEach(entry -> entry.done().completeExceptionally(new IllegalStateException("write queue '" + name + "' is stopped")));
        return true;
    }

    private void run() {
        List<Entry<T>> batch = new ArrayList<>(batchSize);
        boolean stopSeen = false;
        while (!stopSeen) {
            try {
                Entry<T> first = queue.take();
                if (first == STOP) {
                    break;
                }
                batch.add(first);
                stopSeen = fill(batch, first.addedNanos() + maxDelayNanos);
            } catch (InterruptedException e) {
                log.warn("Write queue '{}' interrupted; failing the rows still waiting", name);
                stopped = true;
                fail(batch, e);
                return;
            }
            flush(batch);
        }
        // the stop marker: what was queued before it has been taken; write what came after it in batches too
        List<Entry<T>> rest = new ArrayList<>();
        queue.drainTo(rest);
        rest.removeIf(entry -> entry == STOP);
        for (int from = 0; from < rest.size(); from += batchSize) {
            batch.addAll(rest.subList(from, Math.min(rest.size(), from + batchSize)));
            flush(batch);
        }
    }

    /**
     * Fills the batch with what is queued, taken under the queue's lock once for all of it rather than once a row (the
     * senders, adding a body's thousands of rows, hold that lock often, and a writer that waits for it leaves the
     * cores), and waits for more until the batch is full or its deadline passes.
     *
     * @return whether the stop marker was taken: the batch is then written at once, the rows queued after the marker
     *         with it
     */
    private boolean fill(List<Entry<T>> batch, long deadline) throws InterruptedException {
        while (batch.size() < batchSize) {
            int from = batch.size();
            if (queue.drainTo(batch, batchSize - from) == 0) {
                long left = deadline - System.nanoTime();
                Entry<T> next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                if (next == null) {
                    return false;
                }
                batch.add(next);
            }
            for (int i = from; i < batch.size(); i++) {
                if (batch.get(i) == STOP) {
                    batch.remove(i);
                    return true;
                }
            }
        }
        return false;
    }

    private void flush(List<Entry<T>> batch) {
        synchronized (this) {
            notifyAll();
        }
        List<T> rows = new ArrayList<>(batch.size());
        batch.forEach(entry -> rows.add(entry.row()));
        try {
            writer.write(rows);
        } catch (RowsRejectedException partial) {
            completePartly(batch, partial.getRejected());
            return;
        } catch (Exception | Error e) {
            failedBatches.increment();
            log.warn("Write queue '{}': a batch of {} row(s) failed; each of its saves fails: {}", name, rows.size(),
                    NestedExceptionUtils.getMostSpecificCause(e).toString());
            fail(batch, e);
            return;
        }
        batches.increment();
        rowsWritten.add(rows.size());
        batch.forEach(entry -> entry.done().complete(null));
        batch.clear();
    }

    /** A batch committed but for some rows: those fail with their reasons, the rest are done. */
    private void completePartly(List<Entry<T>> batch, Map<Integer, Throwable> rejected) {
        batches.increment();
        rowsWritten.add(batch.size() - rejected.size());
        rejectedRows.add(rejected.size());
        if (log.isDebugEnabled()) {
            log.debug("Write queue '{}': a batch committed without {} of its {} row(s): {}", name, rejected.size(), batch.size(),
                    rejected.values().iterator().next().getMessage());
        }
        for (int i = 0; i < batch.size(); i++) {
            Throwable reason = rejected.get(i);
            if (reason == null) {
                batch.get(i).done().complete(null);
            } else {
                batch.get(i).done().completeExceptionally(reason);
            }
        }
        batch.clear();
    }

    private static <T> void fail(List<Entry<T>> batch, Throwable cause) {
        batch.forEach(entry -> entry.done().completeExceptionally(cause));
        batch.clear();
    }

    /** @return the queue's name */
    public String getName() {
        return name;
    }

    /** @return rows waiting */
    public int size() {
        return queue.size();
    }

    /** @return rows refused because the queue was full */
    public long getRefused() {
        return refused.sum();
    }

    /** @return batches committed */
    public long getBatches() {
        return batches.sum();
    }

    /** @return batches that failed */
    public long getFailedBatches() {
        return failedBatches.sum();
    }

    /** @return rows committed */
    public long getRowsWritten() {
        return rowsWritten.sum();
    }

    /** @return rows left out of a batch that committed the others ({@link RowsRejectedException}) */
    public long getRejectedRows() {
        return rejectedRows.sum();
    }
}
