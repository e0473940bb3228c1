package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Races between telling, stopping, creating and failing: under every interleaving each message gets exactly one
 * fate (processed, or told why not) and no registry entry is left behind.
 */
class ConcurrencyStressTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 2));
    private final ExecutorService senders = Executors.newFixedThreadPool(4);

    ConcurrencyStressTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void tearDown() {
        senders.shutdownNow();
        system.stop();
    }

    private static org.awaitility.core.ConditionFactory fastAwait() {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1));
    }

    @Test
    void tellRacingStopGivesEveryMessageExactlyOneFate() throws Exception {
        for (int round = 0; round < 200; round++) {
            TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
            TbActorRef ref = system.createRootActor("d", TestActors.counting(new TbStringActorId("r" + round)));
            int perSender = 200;
            CyclicBarrier barrier = new CyclicBarrier(3);
            List<Future<?>> futures = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                int sender = s;
                futures.add(senders.submit(() -> {
                    barrier.await();
                    for (int i = 0; i < perSender; i++) {
                        ref.tell(new TestMsgs.Numbered(sender, i, outcomes));
                    }
                    return null;
                }));
            }
            futures.add(senders.submit(() -> {
                barrier.await();
                system.stop(ref);
                return null;
            }));
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.SECONDS);
            }
            fastAwait().until(() -> outcomes.accountedFor() == 2L * perSender);
            assertThat(outcomes.stoppedTotal()).isEqualTo(outcomes.stoppedCount(TbActorStopReason.STOPPED));
        }
        await().until(() -> system.getActorCount() == 0);
    }

    @Test
    void tellRacingInitFailureGivesEveryMessageExactlyOneFate() throws Exception {
        for (int round = 0; round < 100; round++) {
            TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
            TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("f" + round),
                    () -> new TestActors.FnActor(m -> { }) {
                        @Override
                        public void init(TbActorCtx ctx) throws TbActorException {
                            throw new TbActorException("never", null);
                        }

                        @Override
                        public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                            return InitFailureStrategy.retryImmediately();
                        }
                    }));
            Future<?> sender = senders.submit(() -> {
                for (int i = 0; i < 300; i++) {
                    ref.tell(new TestMsgs.Numbered(i, outcomes));
                }
            });
            sender.get(10, TimeUnit.SECONDS);
            fastAwait().until(() -> outcomes.accountedFor() == 300);
            assertThat(outcomes.processed.sum()).isZero();
            assertThat(outcomes.stoppedCount(TbActorStopReason.INIT_FAILED)).isEqualTo(300);
        }
    }

    @Test
    void childCreationRacingParentStopLeavesNoLiveChild() throws Exception {
        for (int round = 0; round < 300; round++) {
            TbStringActorId parentId = new TbStringActorId("p" + round);
            system.createRootActor("d", TestActors.counting(parentId));
            CyclicBarrier barrier = new CyclicBarrier(2);
            Future<?> creatorTask = senders.submit(() -> {
                barrier.await();
                for (int c = 0; c < 20; c++) {
                    try {
                        system.createChildActor("d", TestActors.counting(new TbStringActorId("p" + parentId + "-c" + c)), parentId);
                    } catch (TbActorNotRegisteredException expected) {
                        // the parent is gone: refusing the child is a correct outcome
                    }
                }
                return null;
            });
            Future<?> stopper = senders.submit(() -> {
                barrier.await();
                system.stop(parentId);
                return null;
            });
            creatorTask.get(10, TimeUnit.SECONDS);
            stopper.get(10, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> system.getActorCount() == 0);
        assertThat(system.getDispatcherStats().get(0).actors()).isZero();
    }

    @Test
    void churnOfManyChildrenUnderOneParentLeavesNoEntryBehind() throws Exception {
        TbStringActorId parentId = new TbStringActorId("parent");
        system.createRootActor("d", TestActors.counting(parentId));
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        List<Future<?>> futures = new ArrayList<>();
        int perThread = 5000;
        for (int t = 0; t < 4; t++) {
            int thread = t;
            futures.add(senders.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    TbActorId id = new TbStringActorId("t" + thread + "-" + (i % 50));
                    TbActorRef child = system.createChildActor("d", TestActors.counting(id), parentId);
                    child.tell(new TestMsgs.Numbered(i, outcomes));
                    if (i % 3 == 0) {
                        system.stop(id);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        for (TbActorId child : system.filterChildren(parentId, id -> true)) {
            system.stop(child);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> system.getActorCount() == 1);
        assertThat(system.filterChildren(parentId, id -> true)).isEmpty();
        await().until(() -> outcomes.accountedFor() == 4L * perThread);
        assertThat(system.getDispatcherStats().get(0).actors()).isEqualTo(1);
    }

    @Test
    void eachSendersMessagesKeepTheirOrderWithinEachPriority() throws Exception {
        int senderCount = 4;
        int perSender = 50_000;
        long[] lastNormal = new long[senderCount];
        long[] lastHigh = new long[senderCount];
        AtomicInteger outOfOrder = new AtomicInteger();
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        java.util.Arrays.fill(lastNormal, -1);
        java.util.Arrays.fill(lastHigh, -1);
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("ordered"), () -> new TestActors.FnActor(msg -> {
            TestMsgs.Numbered n = (TestMsgs.Numbered) msg;
            long[] last = n.value % 7 == 0 ? lastHigh : lastNormal;
            if (n.value <= last[n.sender]) {
                outOfOrder.incrementAndGet();
            }
            last[n.sender] = n.value;
        })));
        List<Future<?>> futures = new ArrayList<>();
        for (int s = 0; s < senderCount; s++) {
            int sender = s;
            futures.add(senders.submit(() -> {
                for (int i = 0; i < perSender; i++) {
                    if (i % 7 == 0) {
                        ref.tellWithHighPriority(new TestMsgs.Numbered(sender, i, outcomes));
                    } else {
                        ref.tell(new TestMsgs.Numbered(sender, i, outcomes));
                    }
                }
            }));
        }
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes.processed.sum() == (long) senderCount * perSender);
        assertThat(outOfOrder.get()).isZero();
        assertThat(lastNormal).containsOnly(perSender - 1L);
        assertThat(lastHigh).containsOnly((perSender - 1L) / 7 * 7);
    }

    @Test
    void normalPriorityMessagesOfOneSenderNeverOvertakeEachOther() throws Exception {
        int senderCount = 3;
        int perSender = 50_000;
        long[] lastSeen = new long[senderCount];
        AtomicInteger outOfOrder = new AtomicInteger();
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        java.util.Arrays.fill(lastSeen, -1);
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("strict"), () -> new TestActors.FnActor(msg -> {
            TestMsgs.Numbered n = (TestMsgs.Numbered) msg;
            if (n.value != lastSeen[n.sender] + 1) {
                outOfOrder.incrementAndGet();
            }
            lastSeen[n.sender] = n.value;
        })));
        List<Future<?>> futures = new ArrayList<>();
        for (int s = 0; s < senderCount; s++) {
            int sender = s;
            futures.add(senders.submit(() -> {
                for (int i = 0; i < perSender; i++) {
                    ref.tell(new TestMsgs.Numbered(sender, i, outcomes));
                }
            }));
        }
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes.processed.sum() == (long) senderCount * perSender);
        assertThat(outOfOrder.get()).isZero();
        assertThat(lastSeen).containsOnly(perSender - 1L);
    }
}
