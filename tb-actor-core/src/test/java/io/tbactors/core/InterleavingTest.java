package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorStoppedException;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbMailboxOverflowPolicy;
import io.tbactors.api.TbStringActorId;
import io.tbactors.api.TbTimer;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each test forces one interleaving that broke a promise of the runtime (gated executors, latches held inside user
 * callbacks), then checks the promise: one turn at a time, destroy once, one fate per message, bounds held.
 */
class InterleavingTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
            .actorThroughput(5).shutdownTimeout(Duration.ofSeconds(2)).restartBackoff(Duration.ofMillis(1)).build());
    private final GatedExecutor gate = new GatedExecutor();
    private final TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
    private final TbActorId id = new TbStringActorId("probe");

    InterleavingTest() {
        system.createDispatcher("g", gate);
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void stopSystem() {
        gate.runAll();
        system.stop();
    }

    private static boolean isSchedulerThread(Thread t) {
        return t.getName().startsWith("tb-actors-scheduler");
    }

    @Test
    void aStopThatLandsWhileADelayedInitRetrySubmitsItsTurnLeavesOneTurnAndOneDestroy() throws Exception {
        ProbeActor.Record record = new ProbeActor.Record();
        system.createRootActor("g", creator(id, () -> new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
                if (attempt == 1) {
                    throw new TbActorException("first init fails", null);
                }
            }
        }));
        gate.holdNextSubmissionFrom(InterleavingTest::isSchedulerThread);
        gate.runAll();
        // the init retry is inside the executor's execute, submitting its turn, when the stop lands
        gate.awaitHeld();
        system.stop(id);
        gate.letThrough();

        assertThat(gate.queued()).as("turns of one actor waiting at once").isEqualTo(1);
        gate.runAll();
        assertThat(record.destroys).hasValue(1);
        assertThat(record.overlaps).hasValue(0);
        assertThat(system.getActorCount()).isZero();
    }

    @Test
    void aStopThatLandsWhileARestartBackoffSubmitsItsTurnLeavesOneTurnAndOneDestroy() throws Exception {
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorRef ref = system.createRootActor("g", creator(id, () -> new ProbeActor(record) {
            @Override
            void onProcess(TbActorMsg msg) {
                throw new IllegalStateException("boom");
            }

            @Override
            public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                return ProcessFailureStrategy.restart();
            }
        }));
        ref.tell(new TestMsgs.Ping());
        gate.holdNextSubmissionFrom(InterleavingTest::isSchedulerThread);
        gate.runAll();
        gate.awaitHeld();
        system.stop(id);
        gate.letThrough();

        assertThat(gate.queued()).isEqualTo(1);
        gate.runAll();
        // the first instance was destroyed for the restart, the second once for the stop
        assertThat(record.destroyedWith).containsExactly(TbActorStopReason.RESTARTED, TbActorStopReason.STOPPED);
        assertThat(system.getActorCount()).isZero();
    }

    @Test
    void aChildStoppedWhileItsCreatorRunsIsNeverListedAsAChild() throws Exception {
        TbActorId parentId = new TbStringActorId("parent");
        TbActorId childId = new TbStringActorId("child");
        system.createRootActor("d", TestActors.counting(parentId));
        CountDownLatch inCreator = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        CompletableFuture<TbActorRef> created = CompletableFuture.supplyAsync(() -> system.createChildActor("d",
                creator(childId, () -> {
                    inCreator.countDown();
                    awaitLatch(proceed);
                    return new TestActors.FnActor(msg -> { });
                }), parentId));
        assertThat(inCreator.await(5, TimeUnit.SECONDS)).isTrue();
        system.stop(childId);
        proceed.countDown();
        created.get(5, TimeUnit.SECONDS);
        await().until(() -> system.getActorCount() == 1);

        assertThat(system.filterChildren(parentId, c -> true)).isEmpty();
        system.createChildActor("d", TestActors.counting(childId), parentId);
        assertThat(system.filterChildren(parentId, c -> true)).containsExactly(childId);
        system.broadcastToChildren(parentId, new TestMsgs.Numbered(1, outcomes));
        await().until(() -> outcomes.processed.sum() == 1);
        assertThat(outcomes.stoppedTotal()).isZero();
    }

    @Test
    void timersScheduledByInitAreNotMultipliedByRestarts() {
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorRef ref = system.createRootActor("g", creator(id, () -> new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) {
                ctx.schedulePeriodically(new TestMsgs.Ping(), Duration.ofHours(1), Duration.ofHours(1));
            }

            @Override
            void onProcess(TbActorMsg msg) {
                throw new IllegalStateException("boom");
            }

            @Override
            public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                return ProcessFailureStrategy.restart();
            }
        }));
        gate.runAll();
        for (int i = 0; i < 3; i++) {
            ref.tell(new TestMsgs.Ping());
            int initsBefore = record.inits.get();
            await().until(() -> {
                gate.runAll();
                return record.inits.get() == initsBefore + 1;
            });
        }
        assertThat(MailboxTestAccess.liveTimers(ref)).isEqualTo(1);
    }

    @Test
    void anAskToAnActorWhoseTurnOutlivesTheSystemStopCompletesByItsOwnTimeout() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        makeStuckActor(stuck);
        CompletableFuture<TbActorMsg> reply = system.ask(id, replyTo -> new TestMsgs.Ping(), Duration.ofSeconds(3));
        try {
            assertThat(system.stop(Duration.ofMillis(200))).isFalse();
            assertThat(system.getTurnsRunningAtStop()).containsOnlyKeys(id);
            assertThat(reply).as("the stop gave up; the ask waits for its own timeout").isNotDone();
            // the turn is still stuck and the runtime's scheduler is gone: the ask's own timeout completes it
            await().atMost(Duration.ofSeconds(10)).until(reply::isDone);
            assertThatCause(reply).isInstanceOf(TimeoutException.class).hasMessageContaining("within PT3S");
        } finally {
            stuck.countDown();
        }
    }

    @Test
    void aTurnStillRunningWhenTheSystemStopGivesUpTellsItsWaitingMessagesOnceWhenItReturns() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        makeStuckActor(stuck);
        List<TestMsgs.Numbered> waiting = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 5; i++) {
            TestMsgs.Numbered msg = new TestMsgs.Numbered(i, outcomes);
            waiting.add(msg);
            system.tell(id, msg);
        }
        try {
            assertThat(system.stop(Duration.ofMillis(200))).isFalse();
            // reported by id with its count of waiting messages, and nothing taken from under the running turn
            assertThat(system.getTurnsRunningAtStop()).containsExactly(java.util.Map.entry(id, 5));
            assertThat(outcomes.accountedFor()).isZero();
        } finally {
            stuck.countDown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomes.stoppedCount(TbActorStopReason.STOPPED) == 5);
        assertThat(waiting).allSatisfy(msg -> assertThat(msg.fateCount()).isEqualTo(1));
        assertThat(outcomes.processed.sum()).isZero();
        assertThat(system.getActorCount()).isZero();
    }

    @Test
    void anAskWhoseRequestIsDroppedFromAFullMailboxFailsAtOnce() throws Exception {
        system.createRootActor("g", new BoundedCreator(id, new TbMailboxBound(1, TbMailboxOverflowPolicy.DROP_OLDEST)));
        gate.runAll();
        CompletableFuture<TbActorMsg> reply = system.ask(id, replyTo -> new TestMsgs.Ping(), Duration.ofHours(1));
        system.tell(id, new TestMsgs.Numbered(1, outcomes));

        assertThat(reply).isCompletedExceptionally();
        assertThatCause(reply).isInstanceOf(TbActorStoppedException.class).hasMessageContaining("DROPPED_OLDEST");
    }

    @Test
    void dropOldestHoldsItsBoundUnderConcurrentSenders() throws Exception {
        int capacity = 4;
        int senders = 4;
        int perSender = 20_000;
        system.createRootActor("g", new BoundedCreator(id, new TbMailboxBound(capacity, TbMailboxOverflowPolicy.DROP_OLDEST)));
        gate.runAll();
        TbActorMailbox mailbox = (TbActorMailbox) system.getActor(id);
        // the actor gets no turn: every message is dropped, or still waiting at the end
        AtomicInteger maxSeen = new AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(senders);
        CompletableFuture<?>[] running = new CompletableFuture<?>[senders];
        for (int s = 0; s < senders; s++) {
            int sender = s;
            running[s] = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < perSender; i++) {
                    mailbox.tell(new TestMsgs.Numbered(sender, i, outcomes));
                    maxSeen.accumulateAndGet(mailbox.pendingMessages(), Math::max);
                }
            }, pool);
        }
        CompletableFuture.allOf(running).get(60, TimeUnit.SECONDS);
        pool.shutdown();

        long waiting = (long) senders * perSender - outcomes.stoppedCount(TbActorStopReason.DROPPED_OLDEST);
        assertThat(waiting).as("messages waiting in a mailbox bounded at " + capacity).isLessThanOrEqualTo(capacity);
        assertThat(maxSeen.get()).isLessThanOrEqualTo(capacity);
        gate.runAll();
        assertThat(outcomes.processed.sum()).isEqualTo(waiting);
    }

    @Test
    void destroyingADispatcherStopsItsActorsSoQueuedMessagesStillGetTheirFate() throws Exception {
        system.createDispatcher("x", DispatcherKind.SINGLE, 1);
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        system.createRootActor("x", creator(new TbStringActorId("blocker"), () -> new TestActors.FnActor(msg -> {
            entered.countDown();
            awaitLatch(blocked);
        })));
        system.tell(new TbStringActorId("blocker"), new TestMsgs.Ping());
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        TbActorRef queued = system.createRootActor("x", TestActors.counting(id));
        for (int i = 0; i < 5; i++) {
            queued.tell(new TestMsgs.Numbered(i, outcomes));
        }
        CompletableFuture<Void> destroying = CompletableFuture.runAsync(() -> system.destroyDispatcher("x"));
        blocked.countDown();
        destroying.get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(5)).until(() -> outcomes.accountedFor() == 5);
        assertThat(system.getActorCount()).isZero();
    }

    @Test
    void aCancelledPeriodicTimerWhoseTickIsAlreadyQueuedIsNotProcessed() {
        ProbeActor.Record record = new ProbeActor.Record();
        AtomicReference<TbTimer> timer = new AtomicReference<>();
        TbActorRef ref = system.createRootActor("g", creator(id, () -> new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) {
                // the first tick comes well after init returned, so the init turn (which goes on to poll) never sees
                // one even when its thread is preempted for a few milliseconds on a loaded machine
                timer.set(ctx.schedulePeriodically(new TestMsgs.Ping(), Duration.ofMillis(50), Duration.ofMillis(1)));
            }
        }));
        gate.runAll();
        TbActorMailbox mailbox = (TbActorMailbox) ref;
        await().until(() -> mailbox.pendingMessages() >= 2);
        // ticks that fired while the first runAll() was still running were processed then; nothing runs until the next
        // runAll(), so what was processed before the cancel is fixed here
        List<TbActorMsg> processedBeforeCancel = List.copyOf(record.processed);
        assertThat(timer.get().cancel()).isTrue();
        gate.runAll();
        assertThat(record.processed).containsExactlyElementsOf(processedBeforeCancel);
    }

    @Test
    void aOneShotTimerWhoseCancelReturnedTrueNeverDelivers() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger cancelledAndDelivered = new AtomicInteger();
        int rounds = Integer.getInteger("tb.test.timerRounds", 20_000);
        CountDownLatch done = new CountDownLatch(rounds);
        record Tick(AtomicInteger cancelledFlag) implements TbActorMsg {
        }
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new TestActors.FnActor(msg -> {
            if (msg instanceof Tick tick) {
                delivered.incrementAndGet();
                if (tick.cancelledFlag().get() == 1) {
                    cancelledAndDelivered.incrementAndGet();
                }
            }
        })));
        TbActorCtx ctx = (TbActorCtx) ref;
        for (int i = 0; i < rounds; i++) {
            AtomicInteger flag = new AtomicInteger();
            TbTimer t = ctx.scheduleOnce(new Tick(flag), Duration.ofNanos(1000));
            if (t.cancel()) {
                flag.set(1);
            }
            done.countDown();
        }
        done.await();
        // wait for every timer that was not cancelled to have delivered
        await().until(() -> MailboxTestAccess.liveTimers(ref) == 0 && ((TbActorMailbox) ref).pendingMessages() == 0);
        assertThat(cancelledAndDelivered).hasValue(0);
    }

    @Test
    void aRestartRacingAStopNeverCallsTheCreatorForAnIdThatWasFreed() throws Exception {
        AtomicInteger created = new AtomicInteger();
        CountDownLatch inDestroy = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorRef ref = system.createRootActor("g", creator(id, () -> {
            created.incrementAndGet();
            return new ProbeActor(record) {
                @Override
                void onProcess(TbActorMsg msg) {
                    throw new IllegalStateException("boom");
                }

                @Override
                void onDestroy(TbActorStopReason reason) {
                    inDestroy.countDown();
                    awaitLatch(proceed);
                }

                @Override
                public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                    return ProcessFailureStrategy.restart();
                }
            };
        }));
        gate.runAll();
        ref.tell(new TestMsgs.Ping());
        CompletableFuture<Void> turn = CompletableFuture.runAsync(gate::runAll);
        assertThat(inDestroy.await(5, TimeUnit.SECONDS)).isTrue();
        system.stop(id);
        proceed.countDown();
        turn.get(5, TimeUnit.SECONDS);
        gate.runAll();

        assertThat(created).hasValue(1);
        assertThat(record.destroyedWith).containsExactly(TbActorStopReason.RESTARTED);
        assertThat(system.getActorCount()).isZero();
    }

    @Test
    void aSecondConcurrentSystemStopWaitsForTheFirst() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        makeStuckActor(stuck);
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> system.stop(Duration.ofSeconds(10)));
        await().until(() -> !system.isRunning());
        CompletableFuture<Boolean> second = CompletableFuture.supplyAsync(() -> system.stop(Duration.ofSeconds(10)));
        assertThat(second).isNotDone();
        stuck.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aSenderCaughtBetweenItsTailSwapAndItsLinkDoesNotHoldTheDispatcherThread() {
        // one dispatcher thread (the test's, step by step) and two actors; a sender of the first is descheduled after it
        // made its message the tail and before it linked it: the first actor's turn must end and let the second run
        SteppingExecutor steps = new SteppingExecutor();
        system.createDispatcher("steps", steps);
        List<String> processed = new CopyOnWriteArrayList<>();
        TbActorRef first = system.createRootActor("steps", creator(new TbStringActorId("first"),
                () -> new TestActors.FnActor(m -> processed.add("first " + ((TestMsgs.Numbered) m).value))));
        TbActorRef second = system.createRootActor("steps", creator(new TbStringActorId("second"),
                () -> new TestActors.FnActor(m -> processed.add("second " + ((TestMsgs.Numbered) m).value))));
        steps.runAll(10);
        assertThat(steps.queued()).as("both actors initialised and idle").isZero();

        first.tell(new TestMsgs.Numbered(1, outcomes));
        TbActorMailbox mailbox = (TbActorMailbox) first;
        QueueNode caught = new QueueNode(new TestMsgs.Numbered(2, outcomes));
        QueueNode previous = mailbox.swapTail(caught);
        try {
            second.tell(new TestMsgs.Numbered(1, outcomes));
            assertThat(steps.queued()).as("one turn per actor").isEqualTo(2);

            assertTimeoutPreemptively(Duration.ofSeconds(10), steps::runOne, "the first actor's turn waited for the sender");
            assertThat(processed).containsExactly("first 1");
            assertThat(steps.queued()).as("the second actor's turn and the first's next one").isEqualTo(2);
            steps.runOne();
            assertThat(processed).as("the second actor ran while the sender was caught").containsExactly("first 1", "second 1");
        } finally {
            assertThat(mailbox.linkAfter(previous, caught)).as("the actor held its turn meanwhile").isFalse();
        }
        steps.runAll(10);
        assertThat(processed).containsExactly("first 1", "second 1", "first 2");
        assertThat(steps.queued()).as("both actors idle again").isZero();
        assertThat(outcomes.processed.sum()).isEqualTo(3);
    }

    @Test
    void holdingTheMonitorOfAnActorReferenceDoesNotBlockTheRuntime() throws Exception {
        TbActorId parentId = new TbStringActorId("parent");
        TbActorRef parent = system.createRootActor("d", TestActors.counting(parentId));
        CompletableFuture<TbActorRef> child;
        synchronized (parent) {
            child = CompletableFuture.supplyAsync(() -> system.createChildActor("d", TestActors.counting(id), parentId));
            assertThat(child.get(5, TimeUnit.SECONDS)).isNotNull();
            assertThat(CompletableFuture.supplyAsync(() -> system.filterChildren(parentId, c -> true)).get(5, TimeUnit.SECONDS))
                    .containsExactly(id);
        }
    }

    private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertThatCause(CompletableFuture<?> future) {
        try {
            future.get(1, TimeUnit.SECONDS);
            throw new AssertionError("the future completed normally");
        } catch (ExecutionException e) {
            return assertThat(e.getCause());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Creates the actor {@code id} on "d" and waits until it is stuck in {@code process} until {@code stuck} opens. */
    private void makeStuckActor(CountDownLatch stuck) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        system.createRootActor("d", creator(id, () -> new TestActors.FnActor(msg -> {
            entered.countDown();
            awaitIgnoringInterrupts(stuck);
        })));
        system.tell(id, new TestMsgs.Ping());
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
    }

    /** Blocks like code that swallows interrupts, so a system stop cannot unstick it. */
    static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                if (latch.await(30, TimeUnit.SECONDS)) {
                    break;
                }
                throw new AssertionError("latch not released");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A counting actor whose creator asks for a mailbox bound. */
    private static final class BoundedCreator implements io.tbactors.api.TbActorCreator {
        private final TbActorId id;
        private final TbMailboxBound bound;

        BoundedCreator(TbActorId id, TbMailboxBound bound) {
            this.id = id;
            this.bound = bound;
        }

        @Override
        public TbActorId createActorId() {
            return id;
        }

        @Override
        public io.tbactors.api.TbActor createActor() {
            return new TestActors.FnActor(msg -> { });
        }

        @Override
        public TbMailboxBound getMailboxBound() {
            return bound;
        }
    }
}
