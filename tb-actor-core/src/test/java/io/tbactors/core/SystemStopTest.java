package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SystemStopTest {

    @Test
    void stopDestroysEveryLiveActorOnceAndTellsEveryUndeliveredMessage() throws Exception {
        DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
        Map<String, AtomicInteger> destroys = new ConcurrentHashMap<>();
        CountDownLatch gate = new CountDownLatch(1);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbStringActorId rootId = new TbStringActorId("root");
        system.createRootActor("d", creator(rootId, () -> destroyCounting("root", destroys, gate)));
        for (int i = 0; i < 50; i++) {
            String name = "c" + i;
            system.createChildActor("d", creator(new TbStringActorId(name), () -> destroyCounting(name, destroys, gate)), rootId);
        }
        for (int i = 0; i < 50; i++) {
            for (int m = 0; m < 20; m++) {
                system.tell(new TbStringActorId("c" + i), new TestMsgs.Numbered(m, outcomes));
            }
        }
        // let a few through, then stop while most are still queued behind the gate
        gate.countDown();
        boolean clean = system.stop(Duration.ofSeconds(10));

        assertThat(clean).isTrue();
        assertThat(destroys).hasSize(51);
        assertThat(destroys.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(outcomes.accountedFor()).isEqualTo(1000);
        assertThat(outcomes.stoppedTotal()).isEqualTo(outcomes.stoppedCount(TbActorStopReason.STOPPED));
        assertThat(system.getActorCount()).isZero();
        assertThat(system.isRunning()).isFalse();
        assertThat(system.getDispatcherStats()).allSatisfy(d -> assertThat(d.terminated()).isTrue());
        assertThat(system.getScheduler().isShutdown()).isTrue();
    }

    @Test
    void messagesToldAfterStopAreToldStoppedAndCounted() {
        DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        TbActorRef ref = system.createRootActor("d", TestActors.counting(new TbStringActorId("a")));
        system.stop();
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        system.tell(new TbStringActorId("a"), new TestMsgs.Numbered(2, outcomes));
        system.tellWithHighPriority(new TbStringActorId("anything"), new TestMsgs.Numbered(3, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).isEqualTo(3);
        assertThat(system.getToldAfterStopCount()).isEqualTo(3);
        assertThat(system.getNotProcessedCount()).isGreaterThanOrEqualTo(3);
        assertThatThrownBy(() -> system.createRootActor("d", TestActors.counting(new TbStringActorId("b"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("actor system is stopped");
        assertThat(system.stop(Duration.ofSeconds(1))).as("a second stop reports the first one's end").isTrue();
    }

    @Test
    void stopReturnsWithinItsTimeoutEvenWhenAnActorIsStuckAndLeavesItsMessagesToItsTurn() throws Exception {
        DefaultTbActorSystem system = new DefaultTbActorSystem(
                TbActorSystemSettings.builder().shutdownTimeout(Duration.ofMillis(500)).build());
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef ref = stuckActor(system, entered, stuck);
        ref.tell(new TestMsgs.Ping());
        entered.await();
        for (int i = 0; i < 5; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        long start = System.nanoTime();
        boolean clean = system.stop(Duration.ofMillis(500));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(clean).isFalse();
        assertThat(took).isLessThan(Duration.ofSeconds(3));
        assertThat(system.getTurnsRunningAtStop()).containsExactly(Map.entry(ref.getActorId(), 5));
        assertThat(outcomes.accountedFor()).as("nothing taken from under the running turn").isZero();
        stuck.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomes.stoppedCount(TbActorStopReason.STOPPED) == 5);
    }

    /**
     * An actor stopped before the system stop (so no longer registered), whose destroy turn waits behind a stuck actor
     * on its one-thread dispatcher: when the system stop gives up, the messages queued to it are still told STOPPED.
     */
    @ParameterizedTest
    @EnumSource(value = DispatcherKind.class, names = {"SINGLE", "FORK_JOIN"})
    void aStoppedActorsQueuedMessagesAreToldWhenTheSystemStopGivesUpBeforeItsDestroyTurnRan(DispatcherKind kind) throws Exception {
        DefaultTbActorSystem system = new DefaultTbActorSystem(
                TbActorSystemSettings.builder().shutdownTimeout(Duration.ofMillis(300)).build());
        // the executor drops the destroy turn it had queued (a thread pool returns it, a fork-join pool cancels it)
        system.createDispatcher("d", kind, 1);
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef blocker = stuckActor(system, entered, stuck);
        TbActorRef stopped = system.createRootActor("d", TestActors.counting(new TbStringActorId("stopped-first")));
        blocker.tell(new TestMsgs.Ping());
        entered.await();
        for (int i = 0; i < 3; i++) {
            stopped.tell(new TestMsgs.Numbered(i, outcomes));
        }
        system.stop(new TbStringActorId("stopped-first"));

        assertThat(system.stop(Duration.ofMillis(300))).isFalse();
        assertThat(outcomes.stoppedCount(TbActorStopReason.STOPPED)).as("messages told STOPPED").isEqualTo(3);
        stuck.countDown();
    }

    @Test
    void awaitQuiescenceWaitsForMailboxesToDrain() {
        DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef ref = system.createRootActor("d", TestActors.creator(new TbStringActorId("slowish"),
                () -> new TestActors.FnActor(msg -> java.util.concurrent.locks.LockSupport.parkNanos(100_000))));
        for (int i = 0; i < 2000; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        assertThat(system.awaitQuiescence(Duration.ofSeconds(20))).isTrue();
        assertThat(outcomes.processed.sum()).isEqualTo(2000);
        assertThat(system.getPendingMessages()).isZero();
        system.stop();
    }

    /** @return an actor on "d" whose every message counts {@code entered} down and waits for {@code stuck}, deaf to interrupts */
    private static TbActorRef stuckActor(DefaultTbActorSystem system, CountDownLatch entered, CountDownLatch stuck) {
        return system.createRootActor("d", creator(new TbStringActorId("stuck"), () -> new TestActors.FnActor(msg -> {
            entered.countDown();
            InterleavingTest.awaitIgnoringInterrupts(stuck);
        })));
    }

    private static TestActors.FnActor destroyCounting(String name, Map<String, AtomicInteger> destroys, CountDownLatch gate) {
        return new TestActors.FnActor(msg -> MailboxSemanticsTest.awaitQuietly(gate)) {
            @Override
            public void destroy(TbActorStopReason stopReason, Throwable cause) {
                destroys.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
            }
        };
    }
}
