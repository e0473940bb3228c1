package io.tbactors.core;

import io.tbactors.api.TbMailboxBound;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

import static io.tbactors.core.MailboxProtocolLincheckTest.op;

/**
 * Model checking of the mailbox's normal-priority queue ({@link MailboxQueues}, {@link QueueNode}) with Lincheck:
 * senders appending from several threads and the turn taking (one thread at a time, as the handing of the turn
 * guarantees). On an unbounded mailbox nobody else takes while a turn may run, so the turn takes with a plain read and
 * write; a {@code DROP_OLDEST} sender is the one party that takes beside a running turn, and on its mailbox every
 * party swaps the message out ({@link ModelWithDropOldest}). Drains run only once the actor is destroyed, racing each
 * other ({@link AfterDestroy}); the system stop never takes from a running turn.
 * Lincheck switches threads between any two shared-memory accesses, so it reaches a sender descheduled between its tail
 * swap and its link, and the turn moving the head while a walker is on the node it leaves.
 *
 * <p>Every operation returns nothing; the invariants are checked at the end of each run: every message appended is
 * taken exactly once (after a final drain), the turn sees each sender's messages in the order they were sent, and
 * once the turn finds the queue empty nothing is left that would make it schedule another turn. {@link Scheduling}
 * checks how the turn is handed over through the tail: one turn at a time, no lost wake-up, and a request followed by
 * a wake-up (as a stop does) always seen by a turn.
 */
public class MailboxQueueLincheckTest {

    private static final int EFFORT = Math.max(1, Integer.getInteger("tb.lincheck.effort", 1));

    @Test
    void eachMessageIsTakenOnceAndTheTurnKeepsEachSendersOrder() {
        options().check(Model.class);
    }

    @Test
    void aDropOldestSenderBesideTheTurnTakesEachMessageOnce() {
        options().check(ModelWithDropOldest.class);
    }

    @Test
    void drainsOfADestroyedActorRacingEachOtherTakeEachMessageOnceAndLeaveNoChainBehind() {
        options().check(AfterDestroy.class);
    }

    @Test
    void oneTurnAtATimeAndNoMessageLeftWhenTheActorGoesIdle() {
        options()
                // the very first message, queued while the first turn gives the actor up
                .addCustomScenario(MailboxProtocolLincheckTest.scenario(Scheduling.class, List.of(),
                        List.of(List.of(op("turn")), List.of(op("send", 1)))))
                .addCustomScenario(MailboxProtocolLincheckTest.scenario(Scheduling.class, List.of(op("send", 0)),
                        List.of(List.of(op("turn"), op("turn")), List.of(op("send", 1), op("wake")), List.of(op("requestAndWake")))))
                // a walk standing on the taken head while a sender wakes the idle actor with a new head
                .addCustomScenario(MailboxProtocolLincheckTest.scenario(Scheduling.class, List.of(op("send", 0), op("turn")),
                        List.of(List.of(op("count"), op("count")), List.of(op("send", 1), op("turn")), List.of(op("send", 2)))))
                .check(Scheduling.class);
    }

    @Test
    void oneTurnAtATimeBesideADropOldestSender() {
        options()
                .addCustomScenario(MailboxProtocolLincheckTest.scenario(SchedulingWithDropOldest.class, List.of(op("send", 0)),
                        List.of(List.of(op("turn"), op("turn")), List.of(op("send", 1), op("wake")), List.of(op("dropOldest")))))
                // a DROP_OLDEST sender must not take the wake-up of a request the running turn has not seen
                .addCustomScenario(MailboxProtocolLincheckTest.scenario(SchedulingWithDropOldest.class, List.of(op("send", 0)),
                        List.of(List.of(op("turn")), List.of(op("requestAndWake")), List.of(op("dropOldest"), op("dropOldest")))))
                .check(SchedulingWithDropOldest.class);
    }

    private static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                .iterations(20 * EFFORT)
                .invocationsPerIteration(200 * EFFORT)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1);
    }

    /**
     * Once the actor is destroyed no turn takes any more: late senders' drains (which move the head) race each other,
     * senders and {@code DROP_OLDEST} takes.
     */
    public static class AfterDestroy extends Senders {
        private final ConcurrentLinkedQueue<Integer> taken = new ConcurrentLinkedQueue<>();

        public AfterDestroy() {
            super(Queues.dropOldest());
        }

        @Operation
        public void drain() {
            queues.drain(element -> taken.add((Integer) element));
        }

        @Operation
        public void dropOldest() {
            dropOldestInto(taken);
        }

        @Validate
        public void eachMessageOnceAndNoChainBehind() throws ReflectiveOperationException {
            queues.drain(element -> taken.add((Integer) element));
            checkEachSentTakenOnce(new ArrayList<>(taken));
            if (!headIsTail(queues) || queues.hasMessages()) {
                throw new IllegalStateException("a drain with nobody else left did not move the head to the tail");
            }
        }
    }

    /**
     * The turn handed from holder to holder through the tail: a sender (or a wake-up) that swaps {@link
     * MailboxQueues#IDLE} out holds the turn and submits it; the turn takes until the queue is empty and then gives it up
     * with {@link MailboxQueues#tryIdle}, or keeps it when a sender came in between. Checked: never two turns submitted at
     * once, and once no turn is left every message was taken by a turn (no lost wake-up) and the queue is idle and empty.
     */
    public static class Scheduling extends Senders {
        private final ConcurrentLinkedQueue<Integer> takenByTurn = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Integer> takenByOthers = new ConcurrentLinkedQueue<>();
        /** Turns submitted and not yet run: the creating thread holds the first. */
        private final AtomicInteger submitted = new AtomicInteger(1);
        private volatile String violation;
        private volatile boolean requested;
        private volatile boolean seen;

        public Scheduling() {
            super(new Queues(null));
        }

        Scheduling(Queues queues) {
            super(queues);
        }

        @Override
        @Operation
        public void send(@Param(gen = ThreadIdGen.class) int sender) {
            if (queues.addNormal(nextMessage(sender))) {
                submit();
            }
        }

        @Operation
        public void wake() {
            if (queues.wake()) {
                submit();
            }
        }

        /** As a stop does: a request in the status, then a wake-up, so that a turn looks at the request. */
        @Operation
        public void requestAndWake() {
            requested = true;
            wake();
        }

        /**
         * Counts what is queued, as the dispatcher's statistics do, walking from the head beside the senders and the
         * turn: the walk must end, also when it stands on a taken node that a sender waking the actor replaces as the
         * head (the count itself is a snapshot, not checked).
         */
        @Operation
        public void count() {
            queues.queued();
        }

        private void submit() {
            if (submitted.incrementAndGet() > 1) {
                violation = "a second turn was submitted while one was pending";
            }
        }

        @Operation(nonParallelGroup = "turn")
        public void turn() {
            if (submitted.get() == 0) {
                return;
            }
            // a turn reads the status when it starts and after every wake-up it takes
            seen |= requested;
            Object element;
            while ((element = queues.pollTurn()) != null) {
                if (element == MailboxQueues.WAKE) {
                    seen |= requested;
                } else {
                    takenByTurn.add((Integer) element);
                }
            }
            // the turn ends before it gives the actor up: a sender may take the next turn at once
            submitted.decrementAndGet();
            if (!queues.tryIdle()) {
                // a sender came in between: the holder keeps the turn and submits its next one
                submitted.incrementAndGet();
            }
        }

        @Validate
        public void noLostWakeUpAndOneTurnAtATime() {
            if (violation != null) {
                throw new IllegalStateException(violation);
            }
            while (submitted.get() > 0) {
                turn();
            }
            if (!queues.isUnscheduled() || queues.hasMessages()) {
                throw new IllegalStateException("no turn is left but the queue is not idle and empty");
            }
            if (requested && !seen) {
                throw new IllegalStateException("the actor went idle and no turn saw the request its wake-up was for");
            }
            List<Integer> all = new ArrayList<>(takenByTurn);
            all.addAll(takenByOthers);
            checkEachSentTakenOnce(all);
        }
    }

    /** {@link Scheduling} on a {@code DROP_OLDEST} mailbox, with a sender that takes the oldest message. */
    public static class SchedulingWithDropOldest extends Scheduling {
        public SchedulingWithDropOldest() {
            super(Queues.dropOldest());
        }

        @Operation
        public void dropOldest() {
            dropOldestInto(takenByOthers);
        }
    }

    /**
     * The queue of an unbounded mailbox: senders and the turn, which takes plainly. Messages are sender * 100 + the
     * sender's sequence number.
     */
    public static class Model extends Senders {
        private final ConcurrentLinkedQueue<Integer> takenByTurn = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Integer> takenByOthers = new ConcurrentLinkedQueue<>();

        public Model() {
            super(new Queues(null));
        }

        Model(Queues queues) {
            super(queues);
        }

        @Operation(nonParallelGroup = "turn")
        public void turn() {
            Object element = queues.pollTurn();
            if (element != null) {
                takenByTurn.add((Integer) element);
            }
        }

        @Validate
        public void eachMessageOnceInOrder() {
            List<Integer> turnOrder = new ArrayList<>(takenByTurn);
            while (true) {
                Object element = queues.pollTurn();
                if (element == null) {
                    break;
                }
                turnOrder.add((Integer) element);
            }
            if (queues.hasMessages()) {
                throw new IllegalStateException("the turn found the queue empty but it still reports messages");
            }
            queues.drain(element -> {
                throw new IllegalStateException("a drain found " + element + " after the turn emptied the queue");
            });
            List<Integer> all = new ArrayList<>(turnOrder);
            all.addAll(takenByOthers);
            checkEachSentTakenOnce(all);
            int[] last = new int[sent.length];
            Arrays.fill(last, -1);
            for (Integer m : turnOrder) {
                int sender = m / 100;
                if (m % 100 < last[sender]) {
                    throw new IllegalStateException("the turn took " + m + " after a later message of its sender: " + turnOrder);
                }
                last[sender] = m % 100;
            }
        }
    }

    /** {@link Model} on a {@code DROP_OLDEST} mailbox, with a sender that takes the oldest message beside the turn. */
    public static class ModelWithDropOldest extends Model {
        public ModelWithDropOldest() {
            super(Queues.dropOldest());
        }

        @Operation
        public void dropOldest() {
            dropOldestInto(takenByOthers);
        }
    }

    /** The queue and its senders, shared by the models. */
    public abstract static class Senders {
        final Queues queues;
        final int[] sent = new int[8];

        Senders(Queues queues) {
            this.queues = queues;
        }

        @Operation
        public void send(@Param(gen = ThreadIdGen.class) int sender) {
            queues.addNormal(nextMessage(sender));
        }

        /** @return the sender's next message: sender * 100 + its sequence number */
        int nextMessage(int sender) {
            // operations of one thread never overlap, so its own counter needs no synchronisation
            return sender * 100 + sent[sender]++;
        }

        /** Every message sent was taken exactly once, and nothing else was taken. */
        void checkEachSentTakenOnce(List<Integer> taken) {
            Map<Integer, Integer> times = new HashMap<>();
            for (Integer m : taken) {
                times.merge(m, 1, Integer::sum);
            }
            for (int sender = 0; sender < sent.length; sender++) {
                for (int seq = 0; seq < sent[sender]; seq++) {
                    int m = sender * 100 + seq;
                    Integer n = times.remove(m);
                    if (n == null || n != 1) {
                        throw new IllegalStateException("message " + m + " taken " + (n == null ? 0 : n) + " times: " + taken);
                    }
                }
            }
            if (!times.isEmpty()) {
                throw new IllegalStateException("taken but never sent: " + times.keySet());
            }
        }

        void dropOldestInto(ConcurrentLinkedQueue<Integer> taken) {
            Object element = queues.claimOldest(queues.depth);
            if (element != null) {
                taken.add((Integer) element);
            }
        }
    }

    /** @return whether the queue's head is its tail: no node behind the last one is kept by the mailbox */
    static boolean headIsTail(MailboxQueues queues) throws ReflectiveOperationException {
        Field head = MailboxQueues.class.getDeclaredField("head");
        head.setAccessible(true);
        Field tail = MailboxQueues.class.getDeclaredField("tail");
        tail.setAccessible(true);
        return head.get(queues) == tail.get(queues);
    }

    /** The queues alone: unbounded and uncounted, or bounded with {@code DROP_OLDEST} (whose sender keeps a hint). */
    static final class Queues extends MailboxQueues {
        private static final long serialVersionUID = 1L;

        Queues(TbMailboxBound bound) {
            super(bound, false);
        }

        /** @return queues whose bound drops the oldest message (the bound itself is the sender's, not modelled here) */
        static Queues dropOldest() {
            return new Queues(TbMailboxBound.dropOldest(1000));
        }

        @Override
        public void run() {
            throw new UnsupportedOperationException("only the queues are modelled");
        }

        @Override
        void turnNotRun() {
            throw new UnsupportedOperationException("only the queues are modelled");
        }
    }
}
