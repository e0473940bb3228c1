package io.tbactors.sample.iot.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteBehindQueueTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration NEVER = Duration.ofHours(1);

    /** The batches written, in order. */
    private final List<List<Integer>> written = Collections.synchronizedList(new ArrayList<>());
    private WriteBehindQueue<Integer> queue;

    @AfterEach
    void stop() {
        if (queue != null) {
            queue.stop(WAIT);
        }
    }

    private WriteBehindQueue<Integer> start(int capacity, int batchSize, Duration maxDelay, WriteBehindQueue.BatchWriter<Integer> writer) {
        queue = new WriteBehindQueue<>("test", capacity, batchSize, maxDelay, Duration.ofMillis(50), writer);
        queue.start();
        return queue;
    }

    private WriteBehindQueue<Integer> start(int batchSize, Duration maxDelay) {
        return start(1000, batchSize, maxDelay, rows -> written.add(List.copyOf(rows)));
    }

    @Test
    void aFullBatchIsWrittenWithoutWaitingForTheDelay() {
        start(3, NEVER);

        List<CompletableFuture<Void>> saves = IntStream.range(0, 7).mapToObj(queue::add).toList();

        // the delay is an hour: only the batch size can have written the first six
        await().atMost(WAIT).until(() -> saves.subList(0, 6).stream().allMatch(CompletableFuture::isDone));
        assertThat(saves.subList(0, 6)).allMatch(save -> !save.isCompletedExceptionally());
        assertThat(written).containsExactly(List.of(0, 1, 2), List.of(3, 4, 5));
        assertThat(saves.get(6)).as("a row of an unfilled batch waits for the delay").isNotDone();
        assertThat(queue.getBatches()).isEqualTo(2);
    }

    @Test
    void anUnfilledBatchIsWrittenAfterTheDelay() {
        start(1000, Duration.ofMillis(20));

        CompletableFuture<Void> first = queue.add(1);
        CompletableFuture<Void> second = queue.add(2);

        await().atMost(WAIT).until(() -> first.isDone() && second.isDone());
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        assertThat(written.stream().flatMap(List::stream).toList()).containsExactly(1, 2);
        assertThat(written).allMatch(batch -> batch.size() < 1000);
    }

    @Test
    void aSaveCompletesOnlyWhenItsBatchIsWritten() throws InterruptedException {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        start(100, 1, NEVER, rows -> {
            writing.countDown();
            assertThat(commit.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            written.add(List.copyOf(rows));
        });

        CompletableFuture<Void> save = queue.add(1);

        assertThat(writing.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(save).as("the batch is being written, not committed").isNotDone();
        commit.countDown();
        await().atMost(WAIT).until(save::isDone);
        assertThat(save).isCompleted();
        assertThat(written).containsExactly(List.of(1));
    }

    @Test
    void savesCompleteInTheOrderTheirRowsWereAdded() {
        start(7, Duration.ofMillis(1));
        List<Integer> completed = Collections.synchronizedList(new ArrayList<>());

        List<CompletableFuture<Void>> saves = IntStream.range(0, 500)
                .mapToObj(i -> queue.add(i).thenRun(() -> completed.add(i))).toList();

        await().atMost(WAIT).until(() -> saves.stream().allMatch(CompletableFuture::isDone));
        assertThat(completed).containsExactlyElementsOf(IntStream.range(0, 500).boxed().toList());
    }

    @Test
    void aFailedBatchFailsEachOfItsSavesAndTheQueueGoesOn() {
        IllegalStateException failure = new IllegalStateException("constraint violated");
        start(1000, 3, NEVER, rows -> {
            if (rows.contains(-1)) {
                throw failure;
            }
            written.add(List.copyOf(rows));
        });

        List<CompletableFuture<Void>> failed = List.of(queue.add(1), queue.add(-1), queue.add(3));
        List<CompletableFuture<Void>> next = List.of(queue.add(4), queue.add(5), queue.add(6));

        await().atMost(WAIT).until(() -> next.stream().allMatch(CompletableFuture::isDone));
        for (CompletableFuture<Void> save : failed) {
            assertThat(save).isCompletedExceptionally();
            assertThatThrownBy(save::get).isInstanceOf(ExecutionException.class).cause().isSameAs(failure);
        }
        assertThat(next).allMatch(save -> !save.isCompletedExceptionally());
        assertThat(written).containsExactly(List.of(4, 5, 6));
        assertThat(queue.getFailedBatches()).isEqualTo(1);
        assertThat(queue.getBatches()).isEqualTo(1);
    }

    @Test
    void aBatchThatRejectsSomeRowsFailsOnlyTheirSavesAndCompletesTheOthers() {
        IllegalStateException gone = new IllegalStateException("device deleted");
        start(1000, 3, NEVER, rows -> {
            List<Integer> kept = new ArrayList<>();
            Map<Integer, Throwable> rejected = new HashMap<>();
            for (int i = 0; i < rows.size(); i++) {
                if (rows.get(i) < 0) {
                    rejected.put(i, gone);
                } else {
                    kept.add(rows.get(i));
                }
            }
            written.add(kept);
            if (!rejected.isEmpty()) {
                throw new WriteBehindQueue.RowsRejectedException(rejected);
            }
        });

        List<CompletableFuture<Void>> saves = List.of(queue.add(1), queue.add(-2), queue.add(3));

        await().atMost(WAIT).until(() -> saves.stream().allMatch(CompletableFuture::isDone));
        assertThat(saves.get(0)).isCompleted();
        assertThat(saves.get(2)).isCompleted();
        assertThatThrownBy(saves.get(1)::get).isInstanceOf(ExecutionException.class).cause().isSameAs(gone);
        assertThat(saves.get(0)).isNotCompletedExceptionally();
        assertThat(saves.get(2)).isNotCompletedExceptionally();
        assertThat(written).containsExactly(List.of(1, 3));
        assertThat(queue.getBatches()).isEqualTo(1);
        assertThat(queue.getFailedBatches()).isZero();
        assertThat(queue.getRowsWritten()).isEqualTo(2);
        assertThat(queue.getRejectedRows()).isEqualTo(1);
    }

    @Test
    void aFullQueueRefusesARowAfterTheOfferTimeoutAndCountsIt() throws InterruptedException {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        start(2, 1, NEVER, rows -> {
            writing.countDown();
            assertThat(commit.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            written.add(List.copyOf(rows));
        });
        CompletableFuture<Void> beingWritten = queue.add(0);
        assertThat(writing.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        List<CompletableFuture<Void>> waiting = List.of(queue.add(1), queue.add(2));
        CompletableFuture<Void> refused = queue.add(3);

        assertThat(refused).isCompletedExceptionally();
        assertThatThrownBy(refused::get).cause().isInstanceOf(WriteBehindQueue.QueueFullException.class)
                .hasMessageContaining("write queue 'test' is full (2 rows waiting)");
        assertThat(queue.getRefused()).isEqualTo(1);
        assertThat(queue.size()).isEqualTo(2);

        commit.countDown();
        await().atMost(WAIT).until(() -> waiting.stream().allMatch(CompletableFuture::isDone));
        assertThat(beingWritten).isCompleted();
        assertThat(written).containsExactly(List.of(0), List.of(1), List.of(2));
    }

    @Test
    void rowsAreWrittenInTheOrderTheyWereAddedAcrossBatches() {
        start(7, Duration.ofMillis(1));

        List<CompletableFuture<Void>> saves = IntStream.range(0, 500).mapToObj(queue::add).toList();

        await().atMost(WAIT).until(() -> saves.stream().allMatch(CompletableFuture::isDone));
        assertThat(written.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(IntStream.range(0, 500).boxed().toList());
        assertThat(written).allMatch(batch -> batch.size() <= 7);
    }

    @Test
    void aStopWritesWhatIsQueuedAtOnceAndRefusesLaterRows() {
        start(1000, NEVER);
        List<CompletableFuture<Void>> saves = IntStream.range(0, 5).mapToObj(queue::add).toList();
        assertThat(saves).noneMatch(CompletableFuture::isDone);

        assertThat(queue.stop(WAIT)).isTrue();

        assertThat(saves).allMatch(save -> save.isDone() && !save.isCompletedExceptionally());
        assertThat(written).containsExactly(List.of(0, 1, 2, 3, 4));
        CompletableFuture<Void> late = queue.add(5);
        assertThat(late).isCompletedExceptionally();
        assertThatThrownBy(late::get).cause().hasMessageContaining("write queue 'test' is stopped");
    }
}
