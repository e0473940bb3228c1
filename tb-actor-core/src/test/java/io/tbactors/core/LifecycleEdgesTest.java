package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle's edges: revival from {@code INIT_FAILED}, restarts and init retries against what the predecessor
 * scheduled, passivation against stops, dispatcher removal against creation, and the system stop and quiescence
 * against actors that are waiting or still in their turn. Each test forces its interleaving (a gated executor, a
 * creator or executor that waits on a latch, a clock the test moves) and fails on the runtime without the fix.
 */
class LifecycleEdgesTest {

    private final AtomicLong clock = new AtomicLong(System.nanoTime());
    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
            .actorThroughput(5).shutdownTimeout(Duration.ofSeconds(2)).restartBackoff(Duration.ofMillis(1))
            .passivationTick(Duration.ofMillis(1)).nanoClock(clock::get).build());
    private final GatedExecutor gate = new GatedExecutor();
    private final TbActorId id = new TbStringActorId("probe");

    LifecycleEdgesTest() {
        system.createDispatcher("g", gate);
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void stopSystem() {
        gate.runAll();
        system.stop();
    }

    record Update() implements TbActorUpdateMsg {
    }

    record Fail() implements TbActorMsg {
    }

    record Tick() implements TbActorMsg {
    }

    /** Init fails on the first attempt and gives up at once; the update's re-init succeeds. */
    private ProbeActor failingFirstInit(ProbeActor.Record record) {
        return new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
                if (attempt == 1) {
                    throw new TbActorException("first init fails", null);
                }
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.stop();
            }
        };
    }

    @Test
    void anInstanceDestroyedByAFailedInitIsNotDestroyedAgainByAStopThatLandsBeforeItsReInit() {
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorRef ref = system.createRootActor("g", creator(id, () -> failingFirstInit(record)));
        gate.runAll();
        assertThat(record.destroyedWith).containsExactly(TbActorStopReason.INIT_FAILED);

        // the update takes the actor out of INIT_FAILED in this thread; its re-init waits in the gate when the stop lands
        ref.tellWithHighPriority(new Update());
        system.stop(id);
        gate.runAll();

        assertThat(record.destroyedWith).as("destroy calls on the one instance").containsExactly(TbActorStopReason.INIT_FAILED);
        assertThat(record.inits).as("init never ran again").hasValue(1);
        assertThat(system.getActorCount()).isZero();
    }

    @Test
    void anActorCreatedWhileItsDispatcherIsDestroyedDoesNotOutliveIt() throws Exception {
        CountDownLatch inCreatorId = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        CountDownLatch inShutdown = new CountDownLatch(1);
        CountDownLatch finishShutdown = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        system.createDispatcher("x", new HeldShutdownExecutor(pool, inShutdown, finishShutdown));
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorCreator slowId = new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                inCreatorId.countDown();
                waitFor(proceed);
                return id;
            }

            @Override
            public io.tbactors.api.TbActor createActor() {
                return new ProbeActor(record);
            }
        };
        // the creation has looked the dispatcher up when the destroy removes it and takes its snapshot of actors
        CompletableFuture<TbActorRef> created = CompletableFuture.supplyAsync(() -> system.createRootActor("x", slowId));
        waitFor(inCreatorId);
        CompletableFuture<Void> destroyed = CompletableFuture.runAsync(() -> system.destroyDispatcher("x"));
        waitFor(inShutdown);
        proceed.countDown();
        Throwable creationFailure = created.handle((ref, t) -> t).get(5, TimeUnit.SECONDS);
        finishShutdown.countDown();
        destroyed.get(5, TimeUnit.SECONDS);

        assertThat(creationFailure).as("the creation is refused").isNotNull().hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Dispatcher 'x'");
        assertThat(system.getActor(id)).isNull();
        assertThat(system.getActorCount()).isZero();
        assertThat(record.inits).hasValue(0);
        assertThat(record.destroys).hasValue(0);
    }

    @Test
    void aRestartedInstanceIsNotPassivatedByItsPredecessorsIdleTimeout() {
        ProbeActor.Record record = new ProbeActor.Record();
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) {
                if (attempt == 1) {
                    ctx.setIdleTimeout(Duration.ofMinutes(1));
                }
            }

            @Override
            void onProcess(TbActorMsg msg) {
                if (msg instanceof Fail) {
                    throw new IllegalStateException("boom");
                }
            }

            @Override
            public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                return ProcessFailureStrategy.restart();
            }
        }));
        ref.tell(new Fail());
        await().until(() -> record.inits.get() == 2);
        // a control actor that did ask for passivation, with the same timeout
        ProbeActor.Record control = new ProbeActor.Record();
        system.createRootActor("d", creator(new TbStringActorId("control"), () -> new ProbeActor(control) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) {
                ctx.setIdleTimeout(Duration.ofMinutes(1));
            }
        }));
        await().until(() -> control.inits.get() == 1);

        clock.addAndGet(Duration.ofHours(1).toNanos());
        await().until(() -> control.destroyedWith.contains(TbActorStopReason.IDLE));

        assertThat(record.destroyedWith).containsExactly(TbActorStopReason.RESTARTED);
        assertThat(system.getActor(id)).isNotNull();
    }

    @Test
    void timersOfAFailedInitAttemptAreCancelledBeforeTheRetry() {
        ProbeActor.Record record = new ProbeActor.Record();
        system.createRootActor("g", creator(id, () -> new ProbeActor(record) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
                ctx.schedulePeriodically(new Tick(), Duration.ofHours(1), Duration.ofHours(1));
                ctx.setIdleTimeout(Duration.ofMinutes(1));
                if (attempt < 4) {
                    throw new TbActorException("init attempt " + attempt + " fails", null);
                }
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.retryImmediately();
            }
        }));
        gate.runAll();

        assertThat(record.inits).hasValue(4);
        assertThat(MailboxTestAccess.liveTimers(system.getActor(id))).as("timers of the successful attempt only").isEqualTo(1);
    }

    @Test
    void aStoppedActorLeavesTheIdleWheelAtOnce() {
        AtomicInteger destroyed = new AtomicInteger();
        WeakReference<TbActorRef> mailbox = createPassivatingActorAndStopIt(destroyed);
        await().until(() -> destroyed.get() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            System.gc();
            return mailbox.get() == null;
        });
    }

    private WeakReference<TbActorRef> createPassivatingActorAndStopIt(AtomicInteger destroyed) {
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new ProbeActor(new ProbeActor.Record()) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) {
                ctx.setIdleTimeout(Duration.ofMinutes(10));
            }

            @Override
            void onDestroy(TbActorStopReason reason) {
                destroyed.incrementAndGet();
            }
        }));
        await().until(() -> ((TbActorMailbox) ref).isIdle() && ((TbActorMailbox) ref).extrasIfAny() != null);
        system.stop(id);
        return new WeakReference<>(ref);
    }

    @Test
    void aSystemStopCalledFromInsideATurnIsRefusedWithTheReason() {
        for (String dispatcher : List.of("d", "single")) {
            if (system.getDispatcher(dispatcher).isEmpty()) {
                system.createDispatcher(dispatcher, DispatcherKind.SINGLE, 1);
            }
            AtomicReference<Throwable> refused = new AtomicReference<>();
            AtomicReference<Boolean> interrupted = new AtomicReference<>();
            TbActorId stopper = new TbStringActorId("stopper-" + dispatcher);
            TbActorRef ref = system.createRootActor(dispatcher, creator(stopper, () -> new TestActors.FnActor(msg -> {
                try {
                    system.stop(Duration.ofSeconds(30));
                } catch (Throwable t) {
                    refused.set(t);
                }
                interrupted.set(Thread.currentThread().isInterrupted());
            })));
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                ref.tell(new Tick());
                await().until(() -> interrupted.get() != null);
            });
            assertThat(refused.get()).as("on dispatcher " + dispatcher).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("from inside an actor's turn").hasMessageContaining("dispatcher '" + dispatcher + "'");
            assertThat(interrupted.get()).isFalse();
            assertThat(system.isRunning()).isTrue();
        }
    }

    @Test
    void anActorWaitingForAnInitRetryWithAnEmptyMailboxIsQuiet() {
        system.createRootActor("d", creator(id, () -> new ProbeActor(new ProbeActor.Record()) {
            @Override
            void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
                throw new TbActorException("init fails", null);
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return InitFailureStrategy.retryWithDelay(60_000);
            }
        }));
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThat(system.awaitQuiescence(Duration.ofSeconds(60))).isTrue());
    }

    @Test
    void aStoppedActorWhoseProcessStillRunsIsNotQuiet() throws Exception {
        CountDownLatch inProcess = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TbActorRef ref = system.createRootActor("d", creator(id, () -> new TestActors.FnActor(msg -> {
            inProcess.countDown();
            waitFor(release);
        })));
        ref.tell(new Tick());
        waitFor(inProcess);
        system.stop(id);
        try {
            assertThat(system.awaitQuiescence(Duration.ofMillis(200))).isFalse();
        } finally {
            release.countDown();
        }
        assertThat(system.awaitQuiescence(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void theSystemStopReturnsInTimeWhenAnExecutorsShutdownNowNeverReturns() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        system.createDispatcher("spinning", new AbstractExecutorServiceDelegate(pool) {
            @Override
            public List<Runnable> shutdownNow() {
                // as a fork-join pool's shutdownNow spun while its worker kept feeding its own queue
                waitFor(never);
                return pool.shutdownNow();
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) {
                return false;
            }
        });
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThat(system.stop(Duration.ofMillis(300))).isFalse());
        } finally {
            never.countDown();
            pool.shutdownNow();
        }
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** An executor whose shutdown waits inside {@code shutdown()} until the test lets it finish. */
    private static final class HeldShutdownExecutor extends AbstractExecutorServiceDelegate {
        private final CountDownLatch inShutdown;
        private final CountDownLatch finishShutdown;

        HeldShutdownExecutor(ExecutorService pool, CountDownLatch inShutdown, CountDownLatch finishShutdown) {
            super(pool);
            this.inShutdown = inShutdown;
            this.finishShutdown = finishShutdown;
        }

        @Override
        public void shutdown() {
            inShutdown.countDown();
            waitFor(finishShutdown);
            super.shutdown();
        }
    }

    /** Delegates everything to a real pool, so a test overrides only the step it holds. */
    private static class AbstractExecutorServiceDelegate extends AbstractExecutorService {
        private final ExecutorService pool;

        AbstractExecutorServiceDelegate(ExecutorService pool) {
            this.pool = pool;
        }

        @Override
        public void shutdown() {
            pool.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return pool.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return pool.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return pool.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
        }

        @Override
        public void execute(Runnable command) {
            pool.execute(command);
        }
    }
}
