package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ActorLifecycleTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(
            TbActorSystemSettings.builder().actorThroughput(5).maxActorInitAttempts(3).build());
    private final TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();

    ActorLifecycleTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    /** An actor whose init fails a given number of times, recording when each attempt ran. */
    static class FlakyInitActor extends TestActors.FnActor {
        final List<Long> attemptsAt;
        final int failures;
        final long retryDelayMs;
        final List<TbActorStopReason> destroyedWith = new CopyOnWriteArrayList<>();

        FlakyInitActor(int failures, long retryDelayMs, List<Long> attemptsAt) {
            super(msg -> { });
            this.failures = failures;
            this.retryDelayMs = retryDelayMs;
            this.attemptsAt = attemptsAt;
        }

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            attemptsAt.add(System.nanoTime());
            if (attemptsAt.size() <= failures) {
                throw new TbActorException("init failure " + attemptsAt.size(), null);
            }
            super.init(ctx);
        }

        @Override
        public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
            return InitFailureStrategy.retryWithDelay(retryDelayMs * attempt);
        }

        @Override
        public void destroy(TbActorStopReason stopReason, Throwable cause) {
            destroyedWith.add(stopReason);
        }
    }

    @Test
    void initRunsOnTheDispatcherBeforeTheFirstMessage() {
        AtomicReference<String> initThread = new AtomicReference<>();
        AtomicInteger processedBeforeInit = new AtomicInteger();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("a"), () -> new AbstractTbActor() {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                super.init(ctx);
                initThread.set(Thread.currentThread().getName());
            }

            @Override
            public boolean process(TbActorMsg msg) {
                if (initThread.get() == null) {
                    processedBeforeInit.incrementAndGet();
                }
                ((TestMsgs.Numbered) msg).markProcessed();
                return true;
            }
        }));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        await().until(() -> outcomes.processed.sum() == 1);
        assertThat(initThread.get()).startsWith("d-");
        assertThat(processedBeforeInit.get()).isZero();
    }

    @Test
    void aFailedInitIsRetriedWithTheActorsDelayAndThenProcessesWhatWaited() {
        List<Long> attempts = new CopyOnWriteArrayList<>();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("flaky"),
                () -> new FlakyInitActor(2, 100, attempts)));
        ref.tell(new TestMsgs.Numbered(7, outcomes));
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomes.processed.sum() == 1);
        assertThat(attempts).hasSize(3);
        assertThat(Duration.ofNanos(attempts.get(1) - attempts.get(0))).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThat(Duration.ofNanos(attempts.get(2) - attempts.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(outcomes.processedSum.sum()).isEqualTo(7);
    }

    @Test
    void anActorThatNeverInitsStaysRegisteredAsInitFailedAndRefusesMessagesUntilItIsStopped() {
        List<Long> attempts = new CopyOnWriteArrayList<>();
        AtomicReference<FlakyInitActor> actor = new AtomicReference<>();
        TbStringActorId id = new TbStringActorId("broken");
        TbActorRef ref = system.createRootActor("d", creator(id, () -> {
            actor.set(new FlakyInitActor(Integer.MAX_VALUE, 1, attempts));
            return actor.get();
        }));
        for (int i = 0; i < 10; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        await().until(() -> outcomes.stoppedCount(TbActorStopReason.INIT_FAILED) == 10);
        assertThat(attempts).hasSize(3);
        assertThat(outcomes.processed.sum()).isZero();
        assertThat(actor.get().destroyedWith).containsExactly(TbActorStopReason.INIT_FAILED);
        // as in ThingsBoard the actor stays registered, refusing messages with INIT_FAILED
        assertThat(system.getActor(id)).isSameAs(ref);
        assertThat(system.getActorStats(id)).get().extracting(s -> s.state()).isEqualTo("INIT_FAILED");
        ref.tell(new TestMsgs.Numbered(10, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.INIT_FAILED)).isEqualTo(11);
        // a stop frees the id without destroying the actor a second time
        system.stop(id);
        await().until(() -> system.getActor(id) == null && system.getActorCount() == 0);
        assertThat(actor.get().destroyedWith).containsExactly(TbActorStopReason.INIT_FAILED);
        assertThat(system.createRootActor("d", TestActors.counting(id))).isNotSameAs(ref);
    }

    @Test
    void anInitFailureStrategyOfStopEndsTheActorAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("x"), () -> new TestActors.FnActor(m -> { }) {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                attempts.incrementAndGet();
                throw new TbActorException("no", null);
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.stop();
            }
        }));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        await().until(() -> outcomes.stoppedCount(TbActorStopReason.INIT_FAILED) == 1);
        assertThat(attempts.get()).isEqualTo(1);
    }

    /** A message that stops its actor when it is told it will not be processed. */
    record StopsItsActorWhenRefused(DefaultTbActorSystem system, TbStringActorId actor) implements TbActorMsg {
        @Override
        public void onTbActorStopped(TbActorStopReason reason) {
            system.stop(actor);
        }
    }

    @Test
    void aStopRequestedWhileTheFailedInitDrainsTheQueueStillDestroysTheActor() {
        // the stop lands inside the turn that tells the queued messages INIT_FAILED: that turn must not let the actor
        // go idle without running the destroy
        SteppingExecutor steps = new SteppingExecutor();
        system.createDispatcher("steps", steps);
        TbStringActorId id = new TbStringActorId("fails-init");
        TbActorRef ref = system.createRootActor("steps", creator(id, () -> new TestActors.FnActor(m -> { }) {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                throw new TbActorException("no", null);
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.stop();
            }
        }));
        ref.tell(new StopsItsActorWhenRefused(system, id));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        steps.runAll(100);
        assertThat(((TbActorMailbox) ref).isDestroyed()).isTrue();
        assertThat(system.getActorCount()).isZero();
        assertThat(outcomes.stoppedCount(TbActorStopReason.INIT_FAILED)).isEqualTo(1);
    }

    @Test
    void noMessageIsProcessedAfterStopEvenWhenStopArrivesDuringASlowInit() throws Exception {
        CountDownLatch initStarted = new CountDownLatch(1);
        CountDownLatch releaseInit = new CountDownLatch(1);
        AtomicInteger processed = new AtomicInteger();
        List<TbActorStopReason> destroyed = new CopyOnWriteArrayList<>();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("slow"), () -> new AbstractTbActor() {
            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                super.init(ctx);
                initStarted.countDown();
                MailboxSemanticsTest.awaitQuietly(releaseInit);
            }

            @Override
            public boolean process(TbActorMsg msg) {
                processed.incrementAndGet();
                return true;
            }

            @Override
            public void destroy(TbActorStopReason stopReason, Throwable cause) {
                destroyed.add(stopReason);
            }
        }));
        for (int i = 0; i < 100; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        initStarted.await();
        system.stop(ref);
        releaseInit.countDown();
        await().until(() -> outcomes.stoppedCount(TbActorStopReason.STOPPED) == 100);
        assertThat(processed.get()).isZero();
        assertThat(destroyed).containsExactly(TbActorStopReason.STOPPED);
        ref.tell(new TestMsgs.Numbered(100, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(101);
    }

    @Test
    void aFailingMessageIsSkippedByDefaultAndTheActorGoesOn() {
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("f"), () -> new TestActors.FnActor(msg -> {
            if (((TestMsgs.Numbered) msg).value % 2 == 0) {
                throw new IllegalStateException("even numbers fail");
            }
        })));
        for (int i = 0; i < 10; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        await().until(() -> outcomes.processed.sum() == 5);
        assertThat(outcomes.processedSum.sum()).isEqualTo(1 + 3 + 5 + 7 + 9);
        assertThat(system.getActor(ref.getActorId())).isSameAs(ref);
    }

    @Test
    void anErrorInProcessStopsTheActorAndTellsTheRestOfItsMailbox() {
        CountDownLatch gate = new CountDownLatch(1);
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("e"), () -> new TestActors.FnActor(msg -> {
            MailboxSemanticsTest.awaitQuietly(gate);
            if (((TestMsgs.Numbered) msg).value == 3) {
                throw new AssertionError("fatal");
            }
        })));
        for (int i = 0; i < 10; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        gate.countDown();
        await().until(() -> outcomes.accountedFor() == 9);
        assertThat(outcomes.processed.sum()).isEqualTo(3);
        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(6);
        assertThat(system.getActor(ref.getActorId())).isNull();
    }

    @Test
    void aProcessFailureStrategyOfStopIsHonoured() {
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("s"), () -> new TestActors.FnActor(msg -> {
            throw new IllegalArgumentException("bad");
        }) {
            @Override
            public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                return ProcessFailureStrategy.stop();
            }
        }));
        ref.tell(new TestMsgs.Ping());
        await().until(() -> system.getActor(ref.getActorId()) == null);
    }

    @Test
    void aCreatorThatThrowsLeavesNoActorAndTheErrorReachesTheCaller() {
        TbStringActorId id = new TbStringActorId("bad-creator");
        assertThatThrownBy(() -> system.createRootActor("d", creator(id, () -> {
            throw new IllegalStateException("cannot build");
        }))).isInstanceOf(IllegalStateException.class).hasMessage("cannot build");
        assertThat(system.getActor(id)).isNull();
        assertThat(system.getActorCount()).isZero();
        assertThat(system.createRootActor("d", TestActors.counting(id))).isNotNull();
    }

    @Test
    void destroyFailuresAreLoggedAndTheActorIsRemovedAnyway() {
        TbActor actor = new TestActors.FnActor(m -> { }) {
            @Override
            public void destroy(TbActorStopReason stopReason, Throwable cause) throws TbActorException {
                throw new TbActorException("cleanup failed", null);
            }
        };
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("d1"), () -> actor));
        ref.tell(new TestMsgs.Ping());
        await().until(() -> ((TbActorMailbox) ref).isIdle());
        system.stop(ref);
        await().until(() -> system.getActorCount() == 0);
        assertThat(system.getActor(ref.getActorId())).isNull();
    }
}
