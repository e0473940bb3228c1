package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStoppedException;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The features beyond ThingsBoard under a concurrent stop: nothing hangs, nothing is counted twice, nothing is left
 * registered or scheduled.
 */
class FeatureRacesWithStopTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
    private final ExecutorService threads = Executors.newFixedThreadPool(3);

    FeatureRacesWithStopTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void tearDown() {
        threads.shutdownNow();
        system.stop();
    }

    record Question(TbActorRef replyTo) implements TbActorMsg {
    }

    record Answer() implements TbActorMsg {
    }

    @Test
    void everyAskRacingAStopCompletesWithTheReplyOrTheStopAndLeavesNothingScheduled() throws Exception {
        for (int round = 0; round < 100; round++) {
            TbActorId id = new TbStringActorId("asked-" + round);
            system.createRootActor("d", creator(id, () -> new TestActors.FnActor(msg -> ((Question) msg).replyTo().tell(new Answer()))));
            CyclicBarrier barrier = new CyclicBarrier(2);
            Future<List<CompletableFuture<Answer>>> asks = threads.submit(() -> {
                List<CompletableFuture<Answer>> futures = new ArrayList<>();
                barrier.await();
                for (int i = 0; i < 50; i++) {
                    futures.add(system.ask(id, Question::new, Duration.ofSeconds(30)));
                }
                return futures;
            });
            threads.submit(() -> {
                barrier.await();
                system.stop(id);
                return null;
            }).get(10, TimeUnit.SECONDS);
            for (CompletableFuture<Answer> future : asks.get(10, TimeUnit.SECONDS)) {
                try {
                    assertThat(future.get(10, TimeUnit.SECONDS)).isInstanceOf(Answer.class);
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOfAny(TbActorStoppedException.class,
                            io.tbactors.api.TbActorNotRegisteredException.class);
                }
            }
        }
        // no timeout task is left behind by an ask that completed early
        Awaitility.await().until(() -> ((ScheduledThreadPoolExecutor) system.getScheduler()).getQueue().isEmpty());
    }

    @Test
    void tellsRacingAStopOnABoundedMailboxGetExactlyOneFateEach() throws Exception {
        for (int round = 0; round < 100; round++) {
            TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
            TbActorId id = new TbStringActorId("bounded-" + round);
            TbActorCreator plain = TestActors.counting(id);
            TbActorRef ref = system.createRootActor("d", new TbActorCreator() {
                @Override
                public TbActorId createActorId() {
                    return id;
                }

                @Override
                public TbActor createActor() {
                    return plain.createActor();
                }

                @Override
                public TbMailboxBound getMailboxBound() {
                    return TbMailboxBound.dropOldest(8);
                }
            });
            CyclicBarrier barrier = new CyclicBarrier(3);
            AtomicInteger refusedByTryTell = new AtomicInteger();
            List<Future<?>> senders = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                int sender = s;
                senders.add(threads.submit(() -> {
                    barrier.await();
                    for (int i = 0; i < 200; i++) {
                        TestMsgs.Numbered msg = new TestMsgs.Numbered(sender, i, outcomes);
                        if (sender == 0) {
                            ref.tell(msg);
                        } else if (!ref.tryTell(msg)) {
                            refusedByTryTell.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            senders.add(threads.submit(() -> {
                barrier.await();
                system.stop(id);
                return null;
            }));
            for (Future<?> f : senders) {
                f.get(10, TimeUnit.SECONDS);
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                    .until(() -> outcomes.accountedFor() + refusedByTryTell.get() == 400);
        }
    }

    /** Starts a fast periodic timer in init. */
    static final class Ticker extends AbstractTbActor {
        final AtomicInteger ticks;

        Ticker(AtomicInteger ticks) {
            this.ticks = ticks;
        }

        @Override
        public void init(TbActorCtx ctx) throws TbActorException {
            super.init(ctx);
            ctx.schedulePeriodically(new TestMsgs.Ping(), Duration.ZERO, Duration.ofMillis(1));
        }

        @Override
        public boolean process(TbActorMsg msg) {
            ticks.incrementAndGet();
            return true;
        }
    }

    @Test
    void timersOfActorsStoppedWhileTheyFireLeaveNoScheduledTask() throws Exception {
        for (int round = 0; round < 50; round++) {
            AtomicInteger ticks = new AtomicInteger();
            TbActorId id = new TbStringActorId("ticker-" + round);
            system.createRootActor("d", creator(id, () -> new Ticker(ticks)));
            Awaitility.await().pollInterval(Duration.ofMillis(1)).until(() -> ticks.get() > 0);
            system.stop(id);
        }
        Awaitility.await().until(() -> ((ScheduledThreadPoolExecutor) system.getScheduler()).getQueue().isEmpty());
        assertThat(system.getActorCount()).isZero();
    }
}
