package io.tbactors.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.Dispatchers;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
}
