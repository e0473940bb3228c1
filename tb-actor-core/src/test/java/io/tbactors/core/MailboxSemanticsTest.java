package io.tbactors.core;

import static io.tbactors.core.TestActors.creator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.dispatch.DispatcherKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MailboxSemanticsTest {

    private static final int THROUGHPUT = 5;
    /** Messages of the flooded actor: more than the turns an outside turn may wait, so waiting for all would show. */
    private static final int FLOOD = 4 * Dispatcher.SUBMISSIONS_EVERY * THROUGHPUT;

    /** The system's clock, which paces the fork-join workers' letting in of outside turns: moved by the tests only. */
    private final AtomicLong clock = new AtomicLong();
    private final DefaultTbActorSystem system = new DefaultTbActorSystem(
            TbActorSystemSettings.builder().actorThroughput(THROUGHPUT).nanoClock(clock::get).build());

    @AfterEach
    void stopSystem() {
        system.stop();
    }

    record Step(int value) implements TbActorMsg {
    }

    @Test
    void anActorProcessesOneMessageAtATimeInTheOrderItWasTold() {
        system.createDispatcher("d", DispatcherKind.FORK_JOIN, 2);
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger maxConcurrent = new AtomicInteger();
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("a"), () -> new TestActors.FnActor(msg -> {
            int now = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            seen.add(((Step) msg).value());
            concurrent.decrementAndGet();
        })));
        for (int i = 0; i < 10_000; i++) {
            ref.tell(new Step(i));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() == 10_000);
        assertThat(maxConcurrent.get()).isEqualTo(1);
        for (int i = 0; i < 10_000; i++) {
            assertThat(seen.get(i)).isEqualTo(i);
        }
    }

    @Test
    void highPriorityMessagesOvertakeNormalOnesAlreadyWaiting() throws Exception {
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        TbActorRef ref = system.createRootActor("d", creator(new TbStringActorId("a"), () -> new TestActors.FnActor(msg -> {
            int value = ((Step) msg).value();
            if (value == 0) {
                entered.countDown();
                awaitQuietly(gate);
            }
            seen.add(value);
        })));
        ref.tell(new Step(0));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        ref.tell(new Step(1));
        ref.tell(new Step(2));
        ref.tellWithHighPriority(new Step(100));
        ref.tellWithHighPriority(new Step(101));
        gate.countDown();
        await().until(() -> seen.size() == 5);
        assertThat(seen).containsExactly(0, 100, 101, 1, 2);
    }

    @Test
    void aTurnProcessesAtMostThroughputMessagesThenLetsOtherActorsRun() {
        system.createDispatcher("one-thread", DispatcherKind.SINGLE, 1);
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch gate = new CountDownLatch(1);
        TbActorRef blocker = system.createRootActor("one-thread", creator(new TbStringActorId("blocker"),
                () -> new TestActors.FnActor(msg -> awaitQuietly(gate))));
        TbActorRef a = system.createRootActor("one-thread", creator(new TbStringActorId("a"),
                () -> new TestActors.FnActor(msg -> trace.add("a"))));
        TbActorRef b = system.createRootActor("one-thread", creator(new TbStringActorId("b"),
                () -> new TestActors.FnActor(msg -> trace.add("b"))));
        blocker.tell(new Step(0));
        for (int i = 0; i < 12; i++) {
            a.tell(new Step(i));
            b.tell(new Step(i));
        }
        gate.countDown();
        await().until(() -> trace.size() == 24);
        // with throughput 5 on one thread, no actor may run more than 5 messages in a row while the other waits
        int run = 1;
        for (int i = 1; i < trace.size(); i++) {
            run = trace.get(i).equals(trace.get(i - 1)) ? run + 1 : 1;
            assertThat(run).as("consecutive messages of one actor at %d in %s", i, trace).isLessThanOrEqualTo(5);
        }
        assertThat(trace.subList(0, 10)).containsOnly("a", "b").contains("a", "b");
    }

    /**
     * A fork-join worker runs its own queue before what was submitted from outside the pool, so a flooded actor whose
     * full turns only resubmitted themselves kept an actor told by a transport thread waiting for all of its messages;
     * now, once {@link Dispatcher#SUBMISSIONS_INTERVAL_NANOS} has passed, the outside turn runs within {@link
     * Dispatcher#SUBMISSIONS_EVERY} full turns of the flooded actor.
     */
    @Test
    void onAForkJoinDispatcherAnActorToldFromOutsideThePoolRunsWithinABoundedNumberOfFullTurns() throws Exception {
        int otherAt = placeOfTheOtherActorBehindAFloodedOne(false);
        assertThat(otherAt).isLessThanOrEqualTo(Dispatcher.SUBMISSIONS_EVERY * THROUGHPUT);
    }

    /** When the flooded actor told the other actor itself, the other's turn is on the worker's own queue: next. */
    @Test
    void onAForkJoinDispatcherAFullTurnLetsAnActorItToldRunFirst() throws Exception {
        assertThat(placeOfTheOtherActorBehindAFloodedOne(true)).isEqualTo(THROUGHPUT);
    }

    /**
     * Two fork-join threads, one held by a blocked actor for the whole test, so every turn runs on the other; the
     * flooded actor's first message waits on a gate while the rest (and the other actor's message) are told.
     */
    private int placeOfTheOtherActorBehindAFloodedOne(boolean toldByTheFloodedActor) throws Exception {
        CountDownLatch release = forkJoinDispatcherWithOneThreadHeld();
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        TbActorRef other = system.createRootActor("fj", creator(new TbStringActorId("other"),
                () -> new TestActors.FnActor(msg -> trace.add("other"))));
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        TbActorRef flooded = system.createRootActor("fj", creator(new TbStringActorId("flooded"), () -> new TestActors.FnActor(msg -> {
            int value = ((Step) msg).value();
            if (value == 0) {
                entered.countDown();
                awaitQuietly(gate);
            } else if (value == 2 && toldByTheFloodedActor) {
                other.tell(new Step(0));
            }
            trace.add("flooded");
        })));
        try {
            await().until(() -> ((TbActorMailbox) other).isIdle() && ((TbActorMailbox) flooded).isIdle());
            flooded.tell(new Step(0));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            clock.addAndGet(Dispatcher.SUBMISSIONS_INTERVAL_NANOS);
            for (int i = 1; i <= FLOOD; i++) {
                flooded.tell(new Step(i));
            }
            if (!toldByTheFloodedActor) {
                other.tell(new Step(0)); // from this thread, outside the pool, while the flooded actor's turn runs
            }
            gate.countDown();
            await().until(() -> trace.size() == FLOOD + 2);
            assertThat(trace).contains("other");
            return trace.indexOf("other");
        } finally {
            release.countDown();
        }
    }

    /**
     * Two actors that keep telling each other one message at a time never fill a turn, and their turns, forked by
     * the worker itself, keep its own queue from ever running empty; a turn submitted from outside the pool waited
     * behind them for as long as they went on. Now a turn that drained its queue and looks again counts like a full
     * turn, so the outside turn runs within a bounded number of theirs once {@link
     * Dispatcher#SUBMISSIONS_INTERVAL_NANOS} has passed since the worker last let submissions in, and not before:
     * the clock stands still until the test moves it.
     */
    @Test
    void onAForkJoinDispatcherAnActorToldFromOutsideThePoolRunsWhileTwoActorsKeepTellingEachOther() throws Exception {
        CountDownLatch release = forkJoinDispatcherWithOneThreadHeld();
        AtomicInteger bounces = new AtomicInteger();
        AtomicInteger bouncesWhenOtherRan = new AtomicInteger(-1);
        AtomicBoolean bouncing = new AtomicBoolean(true);
        TbActorRef[] pair = new TbActorRef[2];
        for (int i = 0; i < 2; i++) {
            int peer = 1 - i;
            pair[i] = system.createRootActor("fj", creator(new TbStringActorId("bouncer-" + i), () -> new TestActors.FnActor(msg -> {
                bounces.incrementAndGet();
                if (bouncing.get()) {
                    pair[peer].tell(msg);
                }
            })));
        }
        TbActorRef other = system.createRootActor("fj", creator(new TbStringActorId("other"),
                () -> new TestActors.FnActor(msg -> bouncesWhenOtherRan.set(bounces.get()))));
        try {
            pair[0].tell(new Step(0));
            // by then the worker has let the submissions in once (the first time comes at its first eighth full turn)
            await().until(() -> bounces.get() > 10 * Dispatcher.SUBMISSIONS_EVERY);
            // from this thread, outside the pool, while the two bounce on the other worker
            other.tell(new Step(1));
            int toldAt = bounces.get();
            // the interval has not passed on the system's clock: many more bounces, and the outside turn still waits
            await().until(() -> bounces.get() > toldAt + 50 * Dispatcher.SUBMISSIONS_EVERY);
            assertThat(bouncesWhenOtherRan.get()).isEqualTo(-1);
            clock.addAndGet(Dispatcher.SUBMISSIONS_INTERVAL_NANOS);
            int passedAt = bounces.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> bouncesWhenOtherRan.get() >= 0);
            assertThat(bouncesWhenOtherRan.get() - passedAt).isLessThanOrEqualTo(2 * Dispatcher.SUBMISSIONS_EVERY + 2);
        } finally {
            bouncing.set(false);
            release.countDown();
        }
    }

    @Test
    void anIdleMailboxAllocatesEachQueueOnlyWhenFirstUsed() throws Exception {
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        TbActorRef ref = system.createRootActor("d", TestActors.counting(new TbStringActorId("a")));
        // the normal-priority queue is the mailbox's own chain of nodes: no node before the first message
        java.lang.reflect.Field normal = MailboxQueues.class.getDeclaredField("head");
        normal.setAccessible(true);
        java.lang.reflect.Field high = MailboxQueues.class.getDeclaredField("highPriorityMsgs");
        high.setAccessible(true);
        await().until(() -> ((TbActorMailbox) ref).isIdle());
        assertThat(normal.get(ref)).isNull();
        ref.tell(new Step(1));
        assertThat(normal.get(ref)).isNotNull();
        await().until(() -> ((TbActorMailbox) ref).isIdle());
        assertThat(high.get(ref)).isNull();
        ref.tellWithHighPriority(new Step(2));
        assertThat(high.get(ref)).isNotNull();
    }

    @Test
    void aDestroyedActorKeepsNoneOfTheMessagesItsDrainTold() throws Exception {
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        TbActorRef ref = blockingActor("d", "a", entered, gate);
        ref.tell(new Step(0));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i <= 1000; i++) {
            ref.tell(new Step(i));
        }
        long notProcessedBefore = system.getNotProcessedCount();
        system.stop(ref.getActorId());
        gate.countDown();
        TbActorMailbox mailbox = (TbActorMailbox) ref;
        await().until(mailbox::isDestroyed);
        await().until(() -> system.getNotProcessedCount() == notProcessedBefore + 1000);
        // the drain moved the head to the last node: the 1000 told messages' nodes are unreachable from the mailbox,
        // which a sender's stale reference may keep alive
        assertThat(MailboxQueueLincheckTest.headIsTail(mailbox)).isTrue();
        assertThat(mailbox.hasMessages()).isFalse();
    }

    @Test
    void aDrainedTurnSubmitsNoExtraTaskToRecheckTheQueues() {
        system.createDispatcher("d", DispatcherKind.SINGLE, 1);
        TbActorRef ref = system.createRootActor("d", TestActors.counting(new TbStringActorId("a")));
        await().until(() -> ((TbActorMailbox) ref).isIdle());
        long turnsBefore = system.getDispatcher("d").orElseThrow().getCompletedTurns();
        ref.tell(new Step(1));
        await().until(() -> ((TbActorMailbox) ref).isIdle()
                && system.getDispatcher("d").orElseThrow().getCompletedTurns() > turnsBefore);
        java.util.concurrent.ThreadPoolExecutor executor =
                (java.util.concurrent.ThreadPoolExecutor) system.getDispatcher("d").orElseThrow().getExecutor();
        await().until(() -> executor.getActiveCount() == 0);
        assertThat(system.getDispatcher("d").orElseThrow().getCompletedTurns()).isEqualTo(turnsBefore + 1);
        assertThat(executor.getCompletedTaskCount()).isEqualTo(2); // the init turn and the one message turn
    }

    /** Creates the fork-join dispatcher "fj" of two threads and holds one of them until the returned latch opens. */
    private CountDownLatch forkJoinDispatcherWithOneThreadHeld() throws InterruptedException {
        system.createDispatcher("fj", DispatcherKind.FORK_JOIN, 2);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        blockingActor("fj", "holder", holding, release).tell(new Step(0));
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    /** An actor whose every message counts {@code entered} down and then waits for {@code gate}. */
    private TbActorRef blockingActor(String dispatcher, String name, CountDownLatch entered, CountDownLatch gate) {
        return system.createRootActor(dispatcher, creator(new TbStringActorId(name), () -> new TestActors.FnActor(msg -> {
            entered.countDown();
            awaitQuietly(gate);
        })));
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate not opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
