package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbStringActorId;
import io.tbactors.api.TbTimer;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessageFateObserverTest {

    /** Records every event as text, and how many tells of each message instance are still unsettled. */
    static final class Recorder implements TbMessageFateObserver {
        final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
        final Map<TbActorMsg, AtomicInteger> open = new ConcurrentHashMap<>();
        final AtomicInteger secondFates = new AtomicInteger();

        @Override
        public void onTold(TbActorId target, TbActorMsg msg) {
            events.add("told " + msg + " to " + target);
            open.computeIfAbsent(msg, m -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void onProcessed(TbActorId target, TbActorMsg msg) {
            settle("processed " + msg, msg);
        }

        @Override
        public void onNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
            settle("not processed " + msg + " " + reason, msg);
        }

        @Override
        public void onHandedBack(TbActorId target, TbActorMsg msg) {
            settle("handed back " + msg, msg);
        }

        @Override
        public void onWithdrawn(TbActorId target, TbActorMsg msg) {
            settle("withdrawn " + msg, msg);
        }

        private void settle(String event, TbActorMsg msg) {
            events.add(event);
            AtomicInteger count = open.get(msg);
            if (count == null || count.decrementAndGet() < 0) {
                secondFates.incrementAndGet();
            }
        }

        long unsettled() {
            return open.values().stream().mapToInt(AtomicInteger::get).filter(n -> n != 0).count();
        }
    }

    record Msg(String name) implements TbActorMsg {
        @Override
        public String toString() {
            return name;
        }
    }

    private final Recorder recorder = new Recorder();
    private final SteppingExecutor stepping = new SteppingExecutor();
    private final List<DefaultTbActorSystem> systems = new ArrayList<>();

    private DefaultTbActorSystem system(TbActorSystemSettings.Builder settings) {
        DefaultTbActorSystem system = new DefaultTbActorSystem(settings.messageFateObserver(recorder).build());
        system.createDispatcher("step", stepping);
        systems.add(system);
        return system;
    }

    private DefaultTbActorSystem system() {
        return system(TbActorSystemSettings.builder());
    }

    @AfterEach
    void stopSystems() {
        stepping.shutdown();
        systems.forEach(system -> system.stop(Duration.ofSeconds(5)));
    }

    private static TbActorCreator bounded(String id, TbMailboxBound bound) {
        TbActorCreator plain = creator(new TbStringActorId(id), () -> new TestActors.FnActor(msg -> { }));
        return new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                return plain.createActorId();
            }

            @Override
            public io.tbactors.api.TbActor createActor() {
                return plain.createActor();
            }

            @Override
            public TbMailboxBound getMailboxBound() {
                return bound;
            }
        };
    }

    @Test
    void eachToldMessageIsSeenToldThenProcessed() {
        DefaultTbActorSystem system = system();
        TbActorRef ref = system.createRootActor("step", TestActors.counting(new TbStringActorId("a")));
        ref.tell(new Msg("m1"));
        ref.tellWithHighPriority(new Msg("m2"));
        stepping.runAll(100);

        assertThat(recorder.events).containsExactly("told m1 to a", "told m2 to a", "processed m2", "processed m1");
        assertThat(recorder.unsettled()).isZero();
    }

    @Test
    void messagesQueuedWhenTheActorStopsAreSeenNotProcessedWithTheStopReason() {
        DefaultTbActorSystem system = system();
        TbActorRef ref = system.createRootActor("step", TestActors.counting(new TbStringActorId("a")));
        stepping.runAll(100);
        ref.tell(new Msg("m1"));
        ref.tell(new Msg("m2"));
        system.stop(ref.getActorId());
        ref.tell(new Msg("late"));
        stepping.runAll(100);

        assertThat(recorder.events).containsExactly("told m1 to a", "told m2 to a", "told late to a",
                "not processed late STOPPED", "not processed m1 STOPPED", "not processed m2 STOPPED");
        assertThat(recorder.unsettled()).isZero();
    }

    @Test
    void aFullMailboxHandsBackTryTellRefusesTellAndDropsTheOldestEachSeenSo() {
        DefaultTbActorSystem system = system();
        TbActorRef rejecting = system.createRootActor("step", bounded("reject", TbMailboxBound.rejectNewest(1)));
        TbActorRef dropping = system.createRootActor("step", bounded("drop", TbMailboxBound.dropOldest(1)));
        stepping.runAll(100);

        rejecting.tell(new Msg("kept"));
        assertThat(rejecting.tryTell(new Msg("tried"))).isFalse();
        rejecting.tell(new Msg("refused"));
        dropping.tell(new Msg("old"));
        dropping.tell(new Msg("new"));
        stepping.runAll(100);

        assertThat(recorder.events).contains("handed back tried", "not processed refused MAILBOX_FULL",
                "not processed old DROPPED_OLDEST", "processed kept", "processed new");
        assertThat(recorder.events).doesNotContain("processed tried", "processed refused", "processed old");
        assertThat(recorder.unsettled()).isZero();
        assertThat(recorder.secondFates).hasValue(0);
    }

    @Test
    void aTickOfACancelledPeriodicTimerIsSeenWithdrawn() {
        DefaultTbActorSystem system = system(TbActorSystemSettings.builder());
        TbActorRef ref = system.createRootActor("step", TestActors.counting(new TbStringActorId("a")));
        stepping.runAll(100);
        TbTimer timer = ((TbActorMailbox) ref).schedulePeriodically(new Msg("tick"), Duration.ZERO, Duration.ofHours(1));
        await().atMost(10, TimeUnit.SECONDS).until(() -> recorder.events.contains("told tick to a"));
        assertThat(timer.cancel()).isTrue();
        stepping.runAll(100);

        assertThat(recorder.events).containsExactly("told tick to a", "withdrawn tick");
    }

    @Test
    void messagesToAnActorWhoseInitGaveUpAreSeenNotProcessedInitFailed() {
        DefaultTbActorSystem system = system(TbActorSystemSettings.builder().maxActorInitAttempts(1));
        TbActorRef ref = system.createRootActor("step", creator(new TbStringActorId("broken"), () -> new TestActors.FnActor(msg -> { }) {
            @Override
            public void init(io.tbactors.api.TbActorCtx ctx) {
                throw new IllegalStateException("no database");
            }
        }));
        ref.tell(new Msg("queued"));
        stepping.runAll(100);
        ref.tell(new Msg("after"));
        stepping.runAll(100);

        assertThat(recorder.events).containsExactly("told queued to broken", "not processed queued INIT_FAILED",
                "told after to broken", "not processed after INIT_FAILED");
    }

    @Test
    void anObserverThatThrowsIsContainedAndTheMessageIsStillProcessed() {
        DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
                .messageFateObserver(new TbMessageFateObserver() {
                    @Override
                    public void onTold(TbActorId target, TbActorMsg msg) {
                        throw new IllegalStateException("observer bug");
                    }

                    @Override
                    public void onProcessed(TbActorId target, TbActorMsg msg) {
                        throw new IllegalStateException("observer bug");
                    }
                }).build());
        systems.add(system);
        system.createDispatcher("step", stepping);
        TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();
        TbActorRef ref = system.createRootActor("step", TestActors.counting(new TbStringActorId("a")));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        stepping.runAll(100);

        assertThat(outcomes.processed.sum()).isEqualTo(1);
        assertThat(system.getCallbackFailureCount()).isEqualTo(2);
    }

    @Test
    void underSendersRacingAStopEveryToldMessageGetsExactlyOneFate() throws Exception {
        DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().messageFateObserver(recorder).build());
        systems.add(system);
        system.createDispatcher("fj", DispatcherKind.FORK_JOIN, 2);
        TbActorRef ref = system.createRootActor("fj", TestActors.counting(new TbStringActorId("raced")));
        int senders = 4;
        int perSender = 2_000;
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch halfway = new CountDownLatch(senders);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            Thread thread = new Thread(() -> {
                awaitQuietly(start);
                for (int i = 0; i < perSender; i++) {
                    if (i == perSender / 2) {
                        halfway.countDown();
                    }
                    Msg msg = new Msg(sender + "-" + i);
                    if (i % 3 == 0) {
                        ref.tryTell(msg);
                    } else {
                        ref.tell(msg);
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        // the stop lands while every sender is still telling
        halfway.await(10, TimeUnit.SECONDS);
        system.stop(ref.getActorId());
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }

        await().atMost(10, TimeUnit.SECONDS).until(() -> recorder.unsettled() == 0);
        assertThat(recorder.open).hasSize(senders * perSender);
        assertThat(recorder.secondFates).hasValue(0);
        assertThat(recorder.events).anyMatch(e -> e.startsWith("processed")).anyMatch(e -> e.endsWith("STOPPED"));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
