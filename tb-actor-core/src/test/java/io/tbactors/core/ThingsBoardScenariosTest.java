package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The workloads ThingsBoard's own actor tests use, written anew: each checks that every message was processed
 * exactly once by checking counts and sums.
 */
class ThingsBoardScenariosTest {

    private static final String DISPATCHER = "scenario";

    private DefaultTbActorSystem system;

    @AfterEach
    void stopSystem() {
        if (system != null) {
            system.stop();
        }
    }

    private void start(DispatcherKind kind, int threads) {
        system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));
        system.createDispatcher(DISPATCHER, kind, threads);
    }

    /** A message carrying a value; the last one of a batch counts the latch down once its actor has seen them all. */
    record IntMsg(long value) implements TbActorMsg {
    }

    /** Sums what it receives and counts down when it has seen the expected number of messages. */
    static final class SummingActor extends AbstractTbActor {
        private final long expected;
        private final CountDownLatch done;
        private final AtomicLong globalSum;
        private long count;
        private long sum;

        SummingActor(long expected, CountDownLatch done, AtomicLong globalSum) {
            this.expected = expected;
            this.done = done;
            this.globalSum = globalSum;
        }

        @Override
        public boolean process(TbActorMsg msg) {
            sum += ((IntMsg) msg).value();
            if (++count == expected) {
                globalSum.addAndGet(sum);
                done.countDown();
            }
            return true;
        }
    }

    private List<TbActorRef> createActors(int actorCount, int msgsPerActor, CountDownLatch done, AtomicLong sum) {
        List<TbActorRef> refs = new ArrayList<>(actorCount);
        for (int i = 0; i < actorCount; i++) {
            refs.add(system.createRootActor(DISPATCHER, creator(new TbStringActorId("actor-" + i),
                    () -> new SummingActor(msgsPerActor, done, sum))));
        }
        return refs;
    }

    private void runTellScenario(int actorCount, int msgsPerActor) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(actorCount);
        AtomicLong sum = new AtomicLong();
        List<TbActorRef> refs = createActors(actorCount, msgsPerActor, done, sum);
        for (int m = 1; m <= msgsPerActor; m++) {
            IntMsg msg = new IntMsg(m);
            for (TbActorRef ref : refs) {
                ref.tell(msg);
            }
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).as("all %d actors saw their %d messages", actorCount, msgsPerActor).isTrue();
        long perActor = (long) msgsPerActor * (msgsPerActor + 1) / 2;
        assertThat(sum.get()).isEqualTo(perActor * actorCount);
    }

    @Test
    void oneActorProcessesOneHundredThousandMessages() throws Exception {
        start(DispatcherKind.FORK_JOIN, 2);
        runTellScenario(1, 100_000);
    }

    @Test
    void tenActorsProcessOneHundredThousandMessagesEach() throws Exception {
        start(DispatcherKind.FORK_JOIN, 2);
        runTellScenario(10, 100_000);
    }

    @Test
    void oneHundredThousandActorsProcessOneMessageFiveTimesOnASingleThread() throws Exception {
        start(DispatcherKind.SINGLE, 1);
        for (int round = 0; round < 5; round++) {
            runTellScenario(100_000, 1);
            system.stop();
            start(DispatcherKind.SINGLE, 1);
        }
    }

    @Test
    void oneHundredThousandActorsProcessOneMessageFiveTimesOnWorkStealingThreads() throws Exception {
        start(DispatcherKind.FORK_JOIN, 2);
        for (int round = 0; round < 5; round++) {
            runTellScenario(100_000, 1);
            system.stop();
            start(DispatcherKind.FORK_JOIN, 2);
        }
    }

    @Test
    void oneHundredThousandActorsProcessTenMessagesEach() throws Exception {
        start(DispatcherKind.FORK_JOIN, 2);
        runTellScenario(100_000, 10);
    }

    @Test
    void oneThousandActorsProcessOneThousandMessagesTenTimes() throws Exception {
        for (int round = 0; round < 10; round++) {
            start(DispatcherKind.FORK_JOIN, 2);
            runTellScenario(1000, 1000);
            system.stop();
            system = null;
        }
    }

    @Test
    void concurrentCreationOfOneIdRunsItsCreatorOnce() throws Exception {
        start(DispatcherKind.FORK_JOIN, 2);
        int threads = 8;
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 200; round++) {
                TbActorId id = new TbStringActorId("contended-" + round);
                AtomicInteger creations = new AtomicInteger();
                CyclicBarrier barrier = new CyclicBarrier(threads);
                List<Future<TbActorRef>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    results.add(callers.submit(() -> {
                        barrier.await();
                        return system.createRootActor(DISPATCHER, creator(id, () -> {
                            creations.incrementAndGet();
                            return new TestActors.FnActor(msg -> { });
                        }));
                    }));
                }
                TbActorRef first = results.get(0).get(10, TimeUnit.SECONDS);
                for (Future<TbActorRef> result : results) {
                    assertThat(result.get(10, TimeUnit.SECONDS)).isSameAs(first);
                }
                assertThat(creations.get()).isEqualTo(1);
            }
        } finally {
            callers.shutdownNow();
        }
    }
}
