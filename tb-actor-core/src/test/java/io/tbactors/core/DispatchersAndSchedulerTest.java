package io.tbactors.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.Dispatchers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DispatchersAndSchedulerTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    @Test
    void aForkJoinDispatcherOfOneThreadIsAPlainSingleThread() {
        Dispatcher one = system.createDispatcher("one", DispatcherKind.FORK_JOIN, 1);
        assertThat(one.getExecutor()).isInstanceOf(ThreadPoolExecutor.class);
        assertThat(one.getKind()).isEqualTo(DispatcherKind.SINGLE);
        assertThat(one.getPoolSize()).isEqualTo(1);
        Dispatcher many = system.createDispatcher("many", DispatcherKind.FORK_JOIN, 3);
        assertThat(many.getExecutor()).isInstanceOfSatisfying(ForkJoinPool.class, fj -> {
            assertThat(fj.getParallelism()).isEqualTo(3);
            assertThat(fj.getAsyncMode()).isTrue();
        });
    }

    @Test
    void dispatcherThreadsCarryTheDispatcherName() {
        system.createDispatcher("device", DispatcherKind.FORK_JOIN, 2);
        AtomicReference<String> thread = new AtomicReference<>();
        TbActorRef ref = system.createRootActor("device", TestActors.creator(new TbStringActorId("a"),
                () -> new TestActors.FnActor(msg -> thread.set(Thread.currentThread().getName()))));
        ref.tell(new TestMsgs.Ping());
        await().until(() -> thread.get() != null);
        assertThat(thread.get()).matches("device-\\d+");
    }

    @Test
    void virtualThreadDispatchersExistExactlyWhenTheJvmHasVirtualThreads() throws Exception {
        boolean expected = Runtime.version().feature() >= 21;
        assertThat(Dispatchers.virtualThreadsAvailable()).isEqualTo(expected);
        if (expected) {
            ExecutorService executor = Dispatchers.virtual("vt");
            AtomicReference<String> name = new AtomicReference<>();
            executor.submit(() -> name.set(Thread.currentThread().getName())).get(5, TimeUnit.SECONDS);
            assertThat(name.get()).startsWith("vt-");
            executor.shutdown();
        } else {
            assertThatThrownBy(() -> Dispatchers.virtual("vt")).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("Java 21");
        }
    }

    @Test
    void badDispatcherDefinitionsAreRefused() {
        assertThatThrownBy(() -> Dispatchers.forkJoin("x", 0)).hasMessage("Dispatcher 'x': pool size must be >= 1, got 0");
        assertThatThrownBy(() -> Dispatchers.create("x", DispatcherKind.CUSTOM, 1)).hasMessageContaining("own executor");
        assertThatThrownBy(() -> Dispatchers.singleThread("")).hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> DispatcherKind.fromLabel("threads")).hasMessageContaining("allowed: fork-join, single, virtual");
        assertThat(DispatcherKind.fromLabel("FORK_JOIN")).isEqualTo(DispatcherKind.FORK_JOIN);
        assertThat(DispatcherKind.fromLabel(" single ")).isEqualTo(DispatcherKind.SINGLE);
    }

    @Test
    void aPeriodicTaskThatThrowsKeepsRunning() {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = system.getScheduler().scheduleAtFixedRate(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("periodic failure");
        }, 0, 10, TimeUnit.MILLISECONDS);
        await().until(() -> runs.get() >= 3);
        assertThat(future.isDone()).isFalse();
        future.cancel(false);
        AtomicInteger delayed = new AtomicInteger();
        ScheduledFuture<?> withDelay = system.getScheduler().scheduleWithFixedDelay(() -> {
            delayed.incrementAndGet();
            throw new IllegalStateException("failure");
        }, 0, 10, TimeUnit.MILLISECONDS);
        await().until(() -> delayed.get() >= 3);
        withDelay.cancel(false);
    }

    @Test
    void aOneShotTaskThatThrowsFailsItsFutureAndTheSchedulerSurvives() throws Exception {
        ScheduledFuture<?> failing = system.getScheduler().schedule(() -> {
            throw new IllegalStateException("one-shot failure");
        }, 1, TimeUnit.MILLISECONDS);
        await().until(failing::isDone);
        assertThatThrownBy(failing::get).hasCauseInstanceOf(IllegalStateException.class);
        AtomicInteger ran = new AtomicInteger();
        system.getScheduler().execute(ran::incrementAndGet);
        await().until(() -> ran.get() == 1);
        assertThatThrownBy(() -> system.getScheduler().execute(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aDestroyedDispatcherStopsTheActorsThatTryToRunOnIt() {
        system.createDispatcher("temp", DispatcherKind.SINGLE, 1);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef ref = system.createRootActor("temp", TestActors.counting(new TbStringActorId("a")));
        await().until(() -> ((TbActorMailbox) ref).isIdle());
        system.destroyDispatcher("temp");
        await().until(() -> system.getDispatcherStats().isEmpty());
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        await().until(() -> outcomes.accountedFor() == 1);
        assertThat(outcomes.stoppedTotal()).isEqualTo(1);
        assertThat(system.getActor(ref.getActorId())).isNull();
    }

    @Test
    void completedTurnsAreCountedOnForkJoinSingleAndCustomExecutors() {
        system.createDispatcher("fj", DispatcherKind.FORK_JOIN, 2);
        system.createDispatcher("single", DispatcherKind.SINGLE, 1);
        system.createDispatcher("custom", java.util.concurrent.Executors.newFixedThreadPool(2));
        for (String name : new String[] {"fj", "single", "custom"}) {
            AtomicInteger processed = new AtomicInteger();
            TbActorRef ref = system.createRootActor(name, TestActors.creator(new TbStringActorId(name + "-a"),
                    () -> new TestActors.FnActor(msg -> processed.incrementAndGet())));
            for (int i = 0; i < 20; i++) {
                ref.tell(new TestMsgs.Ping());
                int expected = i + 1;
                // one message per turn: each tell waits for the previous turn's message
                await().until(() -> processed.get() == expected);
            }
            Dispatcher dispatcher = system.getDispatcher(name).orElseThrow();
            // 20 turns of one message each, plus the turn that ran init
            await().until(() -> dispatcher.getCompletedTurns() >= 20);
            assertThat(dispatcher.getCompletedTurns()).as(name).isBetween(20L, 21L);
        }
    }

    @Test
    void turnsOfThreadsThatEndedStayCounted() {
        ForkJoinPool pool = (ForkJoinPool) Dispatchers.forkJoin("short", 2);
        Dispatcher dispatcher = new Dispatcher("short", pool, DispatcherKind.FORK_JOIN, 2);
        java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            pool.execute(() -> {
                dispatcher.turnCompleted();
                ran.countDown();
            });
        }
        await().until(() -> ran.getCount() == 0);
        pool.shutdown();
        await().until(pool::isTerminated);
        assertThat(dispatcher.getCompletedTurns()).isEqualTo(10);
    }

    /**
     * A turn that ends idle on a fork-join worker leaves one no-op task on the worker's own queue, so that the next
     * push onto it does not wake another worker; never from a foreign thread, never on a plain thread-pool dispatcher.
     */
    @Test
    void aTurnEndingIdleOnAForkJoinWorkerLeavesOneNoOpTaskOnItsQueue() throws Exception {
        ForkJoinPool pool = (ForkJoinPool) Dispatchers.forkJoin("warm", 2);
        Dispatcher dispatcher = new Dispatcher("warm", pool, DispatcherKind.FORK_JOIN, 2);
        try {
            int[] queued = onOneWorkerAlone(pool, () -> {
                int before = java.util.concurrent.ForkJoinTask.getQueuedTaskCount();
                dispatcher.turnEndedIdle();
                int afterFirst = java.util.concurrent.ForkJoinTask.getQueuedTaskCount();
                dispatcher.turnEndedIdle();
                return new int[] {before, afterFirst, java.util.concurrent.ForkJoinTask.getQueuedTaskCount()};
            });
            assertThat(queued).containsExactly(0, 1, 2);
            long submissions = pool.getQueuedSubmissionCount();
            dispatcher.turnEndedIdle();
            assertThat(pool.getQueuedSubmissionCount()).as("from a thread outside the pool").isEqualTo(submissions);
        } finally {
            pool.shutdown();
        }
        ThreadPoolExecutor single = (ThreadPoolExecutor) Dispatchers.singleThread("plain");
        Dispatcher plain = new Dispatcher("plain", single, DispatcherKind.SINGLE, 1);
        java.util.concurrent.CompletableFuture<Integer> plainQueue = new java.util.concurrent.CompletableFuture<>();
        single.execute(() -> {
            plain.turnEndedIdle();
            plainQueue.complete(single.getQueue().size());
        });
        assertThat(plainQueue.get(10, TimeUnit.SECONDS)).isZero();
        single.shutdown();
    }

    /**
     * Issue 30, point 8: a system stop once spun in a fork-join pool's {@code shutdownNow} while a worker kept running
     * tasks from its own queue. Once the pool is shut down, a turn ending on its worker must feed nothing to that queue:
     * no no-op behind an idle turn, no second look after a drained one.
     */
    @Test
    void onceThePoolIsShutDownATurnOnItsWorkerQueuesNothingMoreOnIt() throws Exception {
        ForkJoinPool pool = (ForkJoinPool) Dispatchers.forkJoin("closing", 2);
        Dispatcher dispatcher = new Dispatcher("closing", pool, DispatcherKind.FORK_JOIN, 2);
        try {
            List<Object> seen = onOneWorkerAlone(pool, () -> {
                // another actor's turn waits on this worker's queue, as when a turn told an idle actor
                java.util.concurrent.ForkJoinTask.adapt(() -> { }).fork();
                boolean looksAgainWhileRunning = dispatcher.looksAgainAfterDraining();
                pool.shutdown();
                boolean looksAgainAfterShutdown = dispatcher.looksAgainAfterDraining();
                int before = java.util.concurrent.ForkJoinTask.getQueuedTaskCount();
                dispatcher.turnEndedIdle();
                return List.of(looksAgainWhileRunning, looksAgainAfterShutdown, before,
                        java.util.concurrent.ForkJoinTask.getQueuedTaskCount());
            });
            assertThat(seen).as("looks again while running, after the shutdown; queued before and after an idle turn's "
                    + "end").containsExactly(true, false, 1, 1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * The first turns one worker submits (the children a turn creates) are queued as batches, not one task each: the
     * other workers steal a batch at a time. Each turn still runs once.
     */
    @Test
    void theFirstTurnsAWorkerSubmitsAreQueuedInBatchesAndEachRunsOnce() throws Exception {
        ForkJoinPool pool = (ForkJoinPool) Dispatchers.forkJoin("starting", 2);
        Dispatcher dispatcher = new Dispatcher("starting", pool, DispatcherKind.FORK_JOIN, 2);
        int turns = Dispatcher.FIRST_TURNS_PER_BATCH + 6;
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        try {
            int queued = onOneWorkerAlone(pool, () -> {
                for (int i = 0; i < turns; i++) {
                    int n = i;
                    dispatcher.executeFirstTurn(() -> ran.add(n));
                }
                return java.util.concurrent.ForkJoinTask.getQueuedTaskCount();
            });
            assertThat(queued).as("tasks queued for %d first turns", turns).isEqualTo(2);
            await().until(() -> ran.size() == turns);
            assertThat(ran).as("each first turn once").doesNotHaveDuplicates().hasSize(turns);
        } finally {
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A batch of first turns that a pool's {@code shutdownNow} drops unrun hands each turn back to its own task. */
    @Test
    void aBatchOfFirstTurnsDroppedByShutdownNowHandsEachTurnBack() throws Exception {
        ForkJoinPool pool = (ForkJoinPool) Dispatchers.forkJoin("dropping", 2);
        Dispatcher dispatcher = new Dispatcher("dropping", pool, DispatcherKind.FORK_JOIN, 2);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        onOneWorkerAlone(pool, () -> {
            for (int i = 0; i < 3; i++) {
                dispatcher.executeFirstTurn(new RecordingTurn(i, seen));
            }
            pool.shutdownNow();
            return null;
        });
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).containsExactlyInAnyOrder("handed back 0", "handed back 1", "handed back 2");
    }

    /** A turn as a mailbox is one: a fork-join task that records whether it ran or was handed back. */
    private static final class RecordingTurn extends java.util.concurrent.ForkJoinTask<Void> implements Runnable {
        private static final long serialVersionUID = 1L;
        private final int n;
        private final transient List<String> seen;

        RecordingTurn(int n, List<String> seen) {
            this.n = n;
            this.seen = seen;
        }

        @Override
        public void run() {
            seen.add("ran " + n);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            seen.add("handed back " + n);
            return false;
        }

        @Override
        protected boolean exec() {
            run();
            return false;
        }

        @Override
        public Void getRawResult() {
            return null;
        }

        @Override
        protected void setRawResult(Void value) {
            // no result
        }
    }

    /**
     * A turn that creates many children, each told a message at once: every child runs its init once, before that
     * message; and the turn may wait for a child's init (the batch holding it is stolen by the other worker).
     */
    @Test
    void aTurnThatCreatesManyChildrenStartsEachOnceBeforeItsFirstMessage() {
        system.createDispatcher("fj", DispatcherKind.FORK_JOIN, 2);
        int children = 2 * Dispatcher.FIRST_TURNS_PER_BATCH + 22;
        Map<Integer, List<String>> events = new ConcurrentHashMap<>();
        CountDownLatch firstChildStarted = new CountDownLatch(1);
        AtomicBoolean waitedInTurn = new AtomicBoolean();
        TbActorRef parent = system.createRootActor("fj", TestActors.creator(new TbStringActorId("parent"), () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                for (int i = 0; i < children; i++) {
                    TbActorId childId = new TbStringActorId("child-" + i);
                    List<String> childEvents = Collections.synchronizedList(new ArrayList<>());
                    events.put(i, childEvents);
                    CountDownLatch started = i == 0 ? firstChildStarted : new CountDownLatch(1);
                    ctx.getOrCreateChildActor(childId, () -> "fj", () -> TestActors.creator(childId, () -> new AbstractTbActor() {
                        @Override
                        public void init(TbActorCtx childCtx) throws TbActorException {
                            super.init(childCtx);
                            childEvents.add("init");
                            started.countDown();
                        }

                        @Override
                        public boolean process(TbActorMsg childMsg) {
                            childEvents.add("message");
                            return true;
                        }
                    }), () -> true).tell(new TestMsgs.Ping());
                }
                try {
                    waitedInTurn.set(firstChildStarted.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }
        }));
        parent.tell(new TestMsgs.Ping());
        await().until(() -> events.size() == children && events.values().stream().allMatch(e -> e.size() == 2));
        assertThat(waitedInTurn).as("the parent's wait inside its turn for its first child's init ended").isTrue();
        assertThat(events.values()).allSatisfy(e -> assertThat(e).containsExactly("init", "message"));
    }

    /**
     * Runs {@code task} on one worker of a two-worker pool while the other is kept busy, so that nothing steals from
     * the queue of the worker under test.
     */
    private static <T> T onOneWorkerAlone(ForkJoinPool pool, java.util.concurrent.Callable<T> task) throws Exception {
        java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        try {
            pool.execute(() -> {
                holding.countDown();
                MailboxSemanticsTest.awaitQuietly(hold);
            });
            holding.await();
            java.util.concurrent.CompletableFuture<T> result = new java.util.concurrent.CompletableFuture<>();
            pool.execute(() -> {
                try {
                    result.complete(task.call());
                } catch (Exception e) {
                    result.completeExceptionally(e);
                }
            });
            return result.get(10, TimeUnit.SECONDS);
        } finally {
            hold.countDown();
        }
    }

    @Test
    void aMailboxTaskCannotBeCancelledOrCompletedFromOutside() {
        system.createDispatcher("fj", DispatcherKind.FORK_JOIN, 2);
        AtomicInteger processed = new AtomicInteger();
        TbActorMailbox mailbox = (TbActorMailbox) system.createRootActor("fj", TestActors.creator(new TbStringActorId("a"),
                () -> new TestActors.FnActor(msg -> processed.incrementAndGet())));
        assertThat(mailbox.cancel(true)).isFalse();
        assertThatThrownBy(() -> mailbox.complete(null)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("stop the actor");
        assertThatThrownBy(() -> mailbox.completeExceptionally(new IllegalStateException()))
                .isInstanceOf(UnsupportedOperationException.class);
        mailbox.tell(new TestMsgs.Ping());
        await().until(() -> processed.get() == 1);
        assertThat(mailbox.isDone()).isFalse();
    }
}
