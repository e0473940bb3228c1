package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.DeadLetterReason;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackPressureTest {

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(new TbActorSystemSettings(5, 1, 3));
    private final CountDownLatch gate = new CountDownLatch(1);
    private final TestMsgs.Outcomes outcomes = new TestMsgs.Outcomes();

    BackPressureTest() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
    }

    @AfterEach
    void stopSystem() {
        gate.countDown();
        system.stop();
    }

    private TbActorCreator gated(TbActorId id, TbMailboxBound bound) {
        TbActorCreator plain = creator(id, () -> new TestActors.FnActor(msg -> MailboxSemanticsTest.awaitQuietly(gate)));
        return new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                return plain.createActorId();
            }

            @Override
            public TbActor createActor() {
                return plain.createActor();
            }

            @Override
            public TbMailboxBound getMailboxBound() {
                return bound;
            }
        };
    }

    /** Blocks the actor on its first message so later ones stay queued. */
    private TbActorRef blockedActor(TbMailboxBound bound) {
        TbActorRef ref = system.createRootActor("d", gated(new TbStringActorId("bounded"), bound));
        ref.tell(new TestMsgs.Numbered(-1, outcomes));
        await().until(() -> system.getActorStats(ref.getActorId()).orElseThrow().pendingMessages() == 0
                && outcomes.processed.sum() == 0 && MailboxTestAccess.stats(ref).state().equals("ACTIVE"));
        return ref;
    }

    @Test
    void aFullMailboxRefusesTheNewestAndTellsItMailboxFull() {
        TbActorRef ref = blockedActor(TbMailboxBound.rejectNewest(3));
        for (int i = 0; i < 10; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        assertThat(outcomes.stoppedCount(TbActorStopReason.MAILBOX_FULL)).isEqualTo(7);
        assertThat(((TbActorMailbox) ref).pendingMessages()).isEqualTo(3);
        gate.countDown();
        await().until(() -> outcomes.processed.sum() == 4);
        assertThat(outcomes.processedSum.sum()).isEqualTo(-1 + 0 + 1 + 2);
    }

    @Test
    void aDropOldestMailboxKeepsTheNewestMessages() {
        TbActorRef ref = blockedActor(TbMailboxBound.dropOldest(3));
        for (int i = 0; i < 10; i++) {
            ref.tell(new TestMsgs.Numbered(i, outcomes));
        }
        assertThat(outcomes.stoppedCount(TbActorStopReason.DROPPED_OLDEST)).isEqualTo(7);
        gate.countDown();
        await().until(() -> outcomes.processed.sum() == 4);
        assertThat(outcomes.processedSum.sum()).isEqualTo(-1 + 7 + 8 + 9);
    }

    @Test
    void highPriorityMessagesAreNeverRefused() {
        TbActorRef ref = blockedActor(TbMailboxBound.rejectNewest(1));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        for (int i = 0; i < 5; i++) {
            ref.tellWithHighPriority(new TestMsgs.Numbered(100 + i, outcomes));
        }
        assertThat(outcomes.stoppedTotal()).isZero();
        gate.countDown();
        await().until(() -> outcomes.processed.sum() == 7);
    }

    @Test
    void tryTellReportsAFullMailboxAndLeavesTheMessageWithItsSender() {
        TbActorRef ref = blockedActor(TbMailboxBound.dropOldest(2));
        assertThat(ref.tryTell(new TestMsgs.Numbered(1, outcomes))).isTrue();
        assertThat(ref.tryTell(new TestMsgs.Numbered(2, outcomes))).isTrue();
        TestMsgs.Numbered refused = new TestMsgs.Numbered(3, outcomes);
        assertThat(ref.tryTell(refused)).isFalse();
        assertThat(refused.fateCount()).as("a refused tryTell does not call the callback").isZero();
        assertThat(system.getTryTellRefusedCount()).isEqualTo(1);
        gate.countDown();
        await().until(() -> ((TbActorMailbox) ref).isIdle());
        assertThat(ref.tryTell(refused)).isTrue();
        await().until(() -> outcomes.processed.sum() == 4);
    }

    @Test
    void aDispatcherBoundAppliesToItsActorsAndUnboundedActorsAlwaysAcceptTryTell() {
        TbActorRef unbounded = system.createRootActor("d", TestActors.counting(new TbStringActorId("free")));
        assertThat(unbounded.tryTell(new TestMsgs.Numbered(1, outcomes))).isTrue();
        system.setMailboxBound("d", TbMailboxBound.rejectNewest(1));
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("inherits"),
                () -> new TestActors.FnActor(msg -> MailboxSemanticsTest.awaitQuietly(gate))));
        ref.tell(new TestMsgs.Numbered(-1, outcomes));
        await().until(() -> ((TbActorMailbox) ref).pendingMessages() == 0 && MailboxTestAccess.stats(ref).state().equals("ACTIVE"));
        ref.tell(new TestMsgs.Numbered(2, outcomes));
        ref.tell(new TestMsgs.Numbered(3, outcomes));
        assertThat(outcomes.stoppedCount(TbActorStopReason.MAILBOX_FULL)).isEqualTo(1);
        assertThatThrownBy(() -> system.setMailboxBound("nope", null)).hasMessageContaining("'nope' is not registered");
        assertThatThrownBy(() -> TbMailboxBound.rejectNewest(0)).hasMessage("mailbox capacity must be >= 1, got 0");
    }

    @Test
    void theBoundHoldsUnderConcurrentSenders() throws Exception {
        TbActorRef ref = blockedActor(TbMailboxBound.rejectNewest(100));
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            CyclicBarrier barrier = new CyclicBarrier(4);
            List<Future<?>> futures = new ArrayList<>();
            AtomicInteger accepted = new AtomicInteger();
            for (int s = 0; s < 4; s++) {
                futures.add(senders.submit(() -> {
                    barrier.await();
                    for (int i = 0; i < 1000; i++) {
                        if (ref.tryTell(new TestMsgs.Numbered(i, outcomes))) {
                            accepted.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertThat(accepted.get()).isEqualTo(100);
            assertThat(((TbActorMailbox) ref).pendingMessages()).isEqualTo(100);
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void deadLettersArePublishedCountedAndListenersCanUnsubscribe() {
        List<DeadLetter> letters = Collections.synchronizedList(new ArrayList<>());
        io.tbactors.core.observe.DeadLetterListener listener = letters::add;
        system.addDeadLetterListener(listener);
        system.addDeadLetterListener(letter -> {
            throw new IllegalStateException("a broken listener does not stop the others");
        });
        TbStringActorId missing = new TbStringActorId("missing");
        assertThatThrownBy(() -> system.tell(missing, new TestMsgs.Ping()));
        TbActorRef ref = blockedActor(TbMailboxBound.rejectNewest(1));
        ref.tell(new TestMsgs.Numbered(1, outcomes));
        ref.tell(new TestMsgs.Numbered(2, outcomes));
        assertThat(letters).extracting(DeadLetter::reason)
                .containsExactly(DeadLetterReason.NOT_REGISTERED, DeadLetterReason.MAILBOX_FULL);
        assertThat(letters.get(0).target()).isEqualTo(missing);
        assertThat(system.getDeadLetterCount()).isEqualTo(2);
        system.removeDeadLetterListener(listener);
        ref.tell(new TestMsgs.Numbered(3, outcomes));
        assertThat(letters).hasSize(2);
        assertThat(system.getDeadLetterCount()).isEqualTo(3);
        assertThat(DeadLetterReason.of(TbActorStopReason.IDLE, false)).isEqualTo(DeadLetterReason.IDLE);
        assertThat(DeadLetterReason.of(TbActorStopReason.INIT_FAILED, false)).isEqualTo(DeadLetterReason.INIT_FAILED);
        assertThat(DeadLetterReason.of(TbActorStopReason.DROPPED_OLDEST, false)).isEqualTo(DeadLetterReason.DROPPED_OLDEST);
        assertThat(DeadLetterReason.of(TbActorStopReason.STOPPED, false)).isEqualTo(DeadLetterReason.STOPPED);
        assertThat(DeadLetterReason.of(TbActorStopReason.STOPPED, true)).isEqualTo(DeadLetterReason.SYSTEM_STOPPED);
    }
}
