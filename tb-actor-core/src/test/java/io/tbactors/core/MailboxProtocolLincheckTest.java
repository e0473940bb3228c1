package io.tbactors.core;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateException;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbStringActorId;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Model checking of the mailbox protocol with Lincheck: tell, high-priority tell, tryTell on a bounded mailbox,
 * stop and actor turns, from several threads, in every interleaving Lincheck's model checker reaches.
 *
 * <p>The actor runs on a dispatcher whose executor only queues ({@link SteppingExecutor}); a turn runs when some
 * thread performs the {@code runTurn} operation, so turns are placed among the tells and stops like any other
 * operation, and the checker switches threads inside them too. Every operation returns nothing, so any history is
 * linearizable and a failure means an invariant broke. The invariants are checked where they can be observed
 * exactly: inside the actor's callbacks (one callback at a time, per-sender FIFO, high priority first, nothing after
 * destroy) and at the end of each run, when no operation is in flight: a bounded mailbox holds at most its capacity
 * of waiting normal-priority messages; then every turn left is run, the actor stopped and its turns run again, and
 * each message must have exactly one fate (processed once, or told {@code onTbActorStopped} once; none when tryTell
 * refused it), each actor instance destroyed exactly once, {@code getActorCount()} back at 0 and
 * {@code getNotProcessedCount()} equal to the callbacks seen.
 *
 * <p>{@link ParentAndChild} checks the registry and the parent's child list the same way, with creates and stops of
 * a child racing each other.
 *
 * <p>Only the public API is used (and the test's own {@link SteppingExecutor}), so the model survives a rewrite of the
 * mailbox.
 *
 * <p>Each check starts with a hand-written scenario (the interleavings known to matter, always explored), then runs
 * random ones. {@code -Dtb.lincheck.effort=N} multiplies the random iterations and the invocations (default 1).
 */
public class MailboxProtocolLincheckTest {

    private static final int EFFORT = Math.max(1, Integer.getInteger("tb.lincheck.effort", 1));

    /**
     * Random scenarios of up to 2 + 3x2 + 1 operations, each explored over many interleavings. The defaults keep the
     * checks near a minute on a quiet two-core machine; the first check pays for Lincheck's instrumentation.
     */
    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(5 * EFFORT)
                .invocationsPerIteration(30 * EFFORT)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(1);
    }

    @Test
    void tellHighPriorityTurnAndStopOnAnUnboundedMailbox() {
        checkUnbounded(Unbounded.class);
    }

    @Test
    void aPaddedMailboxKeepsTheSameProtocol() {
        checkUnbounded(PaddedUnbounded.class);
    }

    private static void checkUnbounded(Class<? extends Model> model) {
        modelChecking()
                .addCustomScenario(scenario(model,
                        List.of(op("tell", 0), op("tell", 0)),
                        List.of(List.of(op("tellWithHighPriority", 1), op("runTurn")), List.of(op("runTurn"), op("stop")),
                                List.of(op("tell", 3), op("runTurn")))))
                .check(model);
    }

    @Test
    void rejectNewestMailboxHoldsItsBoundAndGivesEachMessageOneFate() {
        modelChecking()
                .addCustomScenario(scenario(RejectNewest.class,
                        List.of(op("tell", 0)),
                        List.of(List.of(op("tryTell", 1), op("runTurn")), List.of(op("tell", 2), op("tryTell", 2)),
                                List.of(op("runTurn"), op("stop")))))
                .check(RejectNewest.class);
    }

    @Test
    void dropOldestMailboxHoldsItsBoundAndGivesEachMessageOneFate() {
        checkDropOldest(DropOldest.class);
    }

    @Test
    void aPaddedDropOldestMailboxHoldsItsBoundAndGivesEachMessageOneFate() {
        checkDropOldest(PaddedDropOldest.class);
    }

    private static void checkDropOldest(Class<? extends DropOldest> model) {
        // a reservation in flight (slot counted, message not yet linked) and a full-mailbox tell that drops nothing
        modelChecking()
                .addCustomScenario(scenario(model,
                        List.of(),
                        List.of(List.of(op("tryTell", 1)), List.of(op("tell", 2)))))
                .check(model);
    }

    @Test
    void restartAndInitRetryRacingStopKeepOneTurnAndOneDestroyPerInstance() {
        // a stop landing while a failed message restarts the actor
        modelChecking()
                .addCustomScenario(scenario(Restarting.class,
                        List.of(op("tellFailing", 0), op("runTurn")),
                        List.of(List.of(op("stop")), List.of(op("runTurn")))))
                .check(Restarting.class);
    }

    @Test
    void childCreatedWhileItIsStoppedIsNeverLeftInItsParentsList() {
        // stop(child) finds the placeholder registered before the creator runs, while createChildActor is still running
        modelChecking()
                .addCustomScenario(scenario(ParentAndChild.class,
                        List.of(),
                        List.of(List.of(op("createChild")), List.of(op("stopChild")))))
                .check(ParentAndChild.class);
    }

    @Test
    void revivalPassivationAndStopDestroyEachInstanceOnceAfterItsAttachOrReInit() {
        // an update takes the actor out of INIT_FAILED, then a stop and a passivation land before the re-init runs
        modelChecking()
                .addCustomScenario(scenario(Reviving.class,
                        List.of(op("runTurn")),
                        List.of(List.of(op("tellUpdate", 0), op("runTurn")), List.of(op("stop")), List.of(op("passivate")))))
                .check(Reviving.class);
    }

    @Test
    void noActorLivesOnADispatcherRemovedWhileItWasCreated() {
        // the creation looks the dispatcher up, the removal takes its snapshot, then the creation registers the id
        modelChecking()
                .addCustomScenario(scenario(DispatcherRemoval.class,
                        List.of(),
                        List.of(List.of(op("create")), List.of(op("destroyDispatcher")))))
                .check(DispatcherRemoval.class);
    }

    /** An operation of a model with its arguments, for a hand-written scenario. */
    record Op(String name, Object[] args) {
    }

    static Op op(String name, Object... args) {
        return new Op(name, args);
    }

    /** A scenario checked before the random ones, so the interleavings known to matter are always explored. */
    static ExecutionScenario scenario(Class<?> model, List<Op> init, List<List<Op>> threads) {
        List<List<Actor>> parallel = new ArrayList<>();
        for (List<Op> thread : threads) {
            parallel.add(actors(model, thread));
        }
        return new ExecutionScenario(actors(model, init), parallel, List.of(), null);
    }

    private static List<Actor> actors(Class<?> model, List<Op> ops) {
        List<Actor> actors = new ArrayList<>();
        for (Op op : ops) {
            Method method = Arrays.stream(model.getMethods())
                    .filter(m -> m.getName().equals(op.name()) && m.getParameterCount() == op.args().length)
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("no operation " + op.name()));
            actors.add(new Actor(method, Arrays.asList(op.args())));
        }
        return actors;
    }

    /** An unbounded mailbox: tell, tellWithHighPriority, stop, runTurn. */
    public static class Unbounded extends Model {
        public Unbounded() {
            super(null, false);
        }
    }

    /** {@link Unbounded} on a dispatcher with padded mailboxes: the queue's ends live in the padded fields. */
    public static class PaddedUnbounded extends Model {
        public PaddedUnbounded() {
            super(null, false, false, true);
        }
    }

    /** {@link DropOldest} on a dispatcher with padded mailboxes. */
    public static class PaddedDropOldest extends DropOldest {
        public PaddedDropOldest() {
            super(true);
        }
    }

    /** A mailbox bounded to 2 that refuses the newest message when full; adds tryTell. */
    public static class RejectNewest extends Model {
        public RejectNewest() {
            super(TbMailboxBound.rejectNewest(2), false);
        }

        @Operation
        public void tryTell(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.TRY);
        }
    }

    /** A mailbox bounded to 1 that drops the oldest waiting message when full; adds tryTell. */
    public static class DropOldest extends Model {
        public DropOldest() {
            this(false);
        }

        DropOldest(boolean padded) {
            super(TbMailboxBound.dropOldest(1), false, false, padded);
        }

        @Operation
        public void tryTell(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.TRY);
        }
    }

    /**
     * An actor that restarts (no backoff) when a message fails, and whose first instance fails its first init and
     * retries at once; adds a tell of a failing message.
     */
    public static class Restarting extends Model {
        public Restarting() {
            super(null, true);
        }

        @Operation
        public void tellFailing(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.FAILING);
        }
    }

    /**
     * A parent and a child created, stopped and re-created from several threads; at the end the parent's children
     * must be registered and listed once, and after stopping everything each instance is destroyed once.
     */
    public static class ParentAndChild {
        private static final int TURN_LIMIT = 10_000;

        final SteppingExecutor executor = new SteppingExecutor();
        final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder().build());
        final TbActorId parentId = new TbStringActorId("parent");
        final TbActorId childId = new TbStringActorId("child");
        final ConcurrentLinkedQueue<Plain> instances = new ConcurrentLinkedQueue<>();

        public ParentAndChild() {
            system.createDispatcher("stepping", executor);
            system.createRootActor("stepping", TbActorCreator.of(parentId, this::newPlain));
        }

        private Plain newPlain() {
            Plain plain = new Plain();
            instances.add(plain);
            return plain;
        }

        @Operation
        public void createChild() {
            try {
                system.createChildActor("stepping", TbActorCreator.of(childId, this::newPlain), parentId);
            } catch (TbActorNotRegisteredException expected) {
                // the parent was stopped first: nothing created
            }
        }

        @Operation
        public void stopChild() {
            system.stop(childId);
        }

        @Operation(runOnce = true)
        public void stopParent() {
            system.stop(parentId);
        }

        @Operation
        public void runTurn() {
            executor.runOne();
        }

        @Validate
        public void checkInvariants() {
            List<String> violations = new ArrayList<>();
            executor.runAll(TURN_LIMIT);
            List<TbActorId> listed = system.filterChildren(parentId, id -> true);
            if (listed.size() > 1) {
                violations.add("filterChildren(parent) lists " + listed + ": one child id, listed more than once");
            }
            for (TbActorId child : listed) {
                if (system.getActor(child) == null) {
                    violations.add("filterChildren(parent) lists " + child + ", which is not registered");
                }
            }
            system.stop(parentId);
            system.stop(childId);
            executor.runAll(TURN_LIMIT);
            for (Plain plain : instances) {
                if (plain.destroys.get() != 1) {
                    violations.add("an actor instance was destroyed " + plain.destroys.get() + " time(s)");
                }
            }
            if (system.getActorCount() != 0) {
                violations.add("getActorCount() is " + system.getActorCount() + " after every actor was stopped");
            }
            if (!violations.isEmpty()) {
                throw new AssertionError(String.join("; ", violations));
            }
        }

        /** An actor that counts its destroys. */
        static final class Plain extends AbstractTbActor {
            final AtomicInteger destroys = new AtomicInteger();

            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }

            @Override
            public void destroy(TbActorStopReason stopReason, Throwable cause) {
                destroys.incrementAndGet();
            }
        }
    }

    /**
     * An actor whose init fails and gives up (INIT_FAILED) until an update re-initialises it, and whose updates may fail
     * again (back to INIT_FAILED); adds updates, failing updates and passivation (the idle wheel's entry point). Each
     * instance must be destroyed at most once per attach or re-init, and once more at the end if a re-init ran since
     * its last destroy.
     */
    public static class Reviving extends Model {
        public Reviving() {
            super(null, false, true);
        }

        @Operation
        public void tellUpdate(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.UPDATE);
        }

        @Operation
        public void tellFailingUpdate(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.FAILING_UPDATE);
        }

        @Operation(runOnce = true)
        public void passivate() {
            TbActorMailbox mailbox = (TbActorMailbox) ref;
            mailbox.runtime.passivate(mailbox);
            stopReturned = true;
        }
    }

    /**
     * A dispatcher removed while an actor is created on it, with turns run in the caller (a direct executor, so the
     * removal's wait for its actors' destroy needs no other thread). Once the dispatcher is gone no actor may live:
     * nothing registered, a live count of 0, and every instance whose init ran destroyed once.
     */
    public static class DispatcherRemoval {
        final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
                .shutdownTimeout(Duration.ofSeconds(5)).build());
        final TbActorId id = new TbStringActorId("subject");
        final ConcurrentLinkedQueue<Counted> instances = new ConcurrentLinkedQueue<>();
        volatile boolean removed;

        public DispatcherRemoval() {
            system.createDispatcher("direct", new DirectExecutor());
        }

        @Operation
        public void create() {
            try {
                system.createRootActor("direct", TbActorCreator.of(id, () -> {
                    Counted counted = new Counted();
                    instances.add(counted);
                    return counted;
                }));
            } catch (IllegalArgumentException expected) {
                // the dispatcher is gone: refused
            }
        }

        @Operation(runOnce = true)
        public void destroyDispatcher() {
            system.destroyDispatcher("direct");
            removed = true;
        }

        @Validate
        public void checkInvariants() {
            List<String> violations = new ArrayList<>();
            if (removed) {
                if (system.getActor(id) != null) {
                    violations.add("an actor is registered on the removed dispatcher");
                }
                if (system.getActorCount() != 0) {
                    violations.add("getActorCount() is " + system.getActorCount() + " after its dispatcher was removed");
                }
                for (Counted c : instances) {
                    if (c.inits.get() > 0 && c.destroys.get() != 1) {
                        violations.add("an instance whose init ran was destroyed " + c.destroys.get() + " time(s)");
                    }
                }
            }
            if (!violations.isEmpty()) {
                throw new AssertionError(String.join("; ", violations));
            }
        }

        /** An actor that counts its inits and destroys. */
        static final class Counted extends AbstractTbActor {
            final AtomicInteger inits = new AtomicInteger();
            final AtomicInteger destroys = new AtomicInteger();

            @Override
            public void init(TbActorCtx ctx) throws TbActorException {
                super.init(ctx);
                inits.incrementAndGet();
            }

            @Override
            public boolean process(TbActorMsg msg) {
                return true;
            }

            @Override
            public void destroy(TbActorStopReason stopReason, Throwable cause) {
                destroys.incrementAndGet();
            }
        }

        /** Runs each task in the submitting thread; refuses after shutdown like a real executor. */
        static final class DirectExecutor extends java.util.concurrent.AbstractExecutorService {
            private volatile boolean shutdown;

            @Override
            public void execute(Runnable command) {
                if (shutdown) {
                    throw new java.util.concurrent.RejectedExecutionException("shut down");
                }
                command.run();
            }

            @Override
            public void shutdown() {
                shutdown = true;
            }

            @Override
            public List<Runnable> shutdownNow() {
                shutdown = true;
                return List.of();
            }

            @Override
            public boolean isShutdown() {
                return shutdown;
            }

            @Override
            public boolean isTerminated() {
                return shutdown;
            }

            @Override
            public boolean awaitTermination(long timeout, java.util.concurrent.TimeUnit unit) {
                return true;
            }
        }
    }

    enum Kind { NORMAL, HIGH, TRY, FAILING, UPDATE, FAILING_UPDATE }

    /** A message that records its fates; the model checks there is exactly one. */
    static class Msg implements TbActorMsg {
        final int sender;
        final int seq;
        final Kind kind;
        final AtomicInteger processed = new AtomicInteger();
        final AtomicInteger stopped = new AtomicInteger();
        volatile boolean refused;
        volatile TbActorStopReason reason;

        Msg(int sender, int seq, Kind kind) {
            this.sender = sender;
            this.seq = seq;
            this.kind = kind;
        }

        boolean high() {
            return kind == Kind.HIGH || kind == Kind.UPDATE || kind == Kind.FAILING_UPDATE;
        }

        int fates() {
            return processed.get() + stopped.get();
        }

        @Override
        public void onTbActorStopped(TbActorStopReason why) {
            reason = why;
            stopped.incrementAndGet();
        }

        @Override
        public String toString() {
            return kind + "(sender " + sender + " #" + seq + ")";
        }
    }

    /** An update (ThingsBoard's rule-node update): told with high priority, it re-initialises an INIT_FAILED actor. */
    static final class UpdateMsg extends Msg implements TbActorUpdateMsg {
        UpdateMsg(int sender, int seq, Kind kind) {
            super(sender, seq, kind);
        }
    }

    /** The state of one Lincheck invocation: an actor system, one actor on a stepping dispatcher, what was told. */
    public abstract static class Model {
        private static final int SENDERS = 8;
        private static final int TURN_LIMIT = 10_000;

        final SteppingExecutor executor = new SteppingExecutor();
        final DefaultTbActorSystem system;
        final TbActorId id = new TbStringActorId("subject");
        final TbMailboxBound bound;
        final TbActorRef ref;
        final boolean failFirstInit;
        /** Every init of the first instance gives up until an update came; updates re-initialise it. */
        final boolean reviving;
        final ConcurrentLinkedQueue<Msg> told = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Msg> highsTold = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Subject> instances = new ConcurrentLinkedQueue<>();
        final AtomicBoolean inCallback = new AtomicBoolean();
        volatile boolean stopReturned;
        /** An update was told: from then on the reviving actor's init succeeds. */
        volatile boolean updateSeen;
        private final int[] nextSeq = new int[SENDERS];
        // touched only inside the actor's callbacks, which the model checks never overlap
        private final int[][] lastProcessed = new int[SENDERS][2];
        private Msg[] highsAtPreviousStart = new Msg[0];

        Model(TbMailboxBound bound, boolean failFirstInit) {
            this(bound, failFirstInit, false);
        }

        Model(TbMailboxBound bound, boolean failFirstInit, boolean reviving) {
            this(bound, failFirstInit, reviving, false);
        }

        Model(TbMailboxBound bound, boolean failFirstInit, boolean reviving, boolean padded) {
            this.bound = bound;
            this.failFirstInit = failFirstInit;
            this.reviving = reviving;
            for (int[] last : lastProcessed) {
                Arrays.fill(last, -1);
            }
            system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
                    .actorThroughput(2)
                    .maxActorInitAttempts(5)
                    .maxRestarts(1000)
                    .restartBackoff(Duration.ZERO)
                    .build());
            system.createDispatcher("stepping", executor);
            system.setPaddedMailboxes("stepping", padded);
            ref = system.createRootActor("stepping", new TbActorCreator() {
                @Override
                public TbActorId createActorId() {
                    return id;
                }

                @Override
                public TbActor createActor() {
                    if (stopReturned) {
                        violation("the creator was called after stop(" + id + ") had returned");
                    }
                    Subject subject = new Subject(instances.size() + 1);
                    instances.add(subject);
                    return subject;
                }

                @Override
                public TbMailboxBound getMailboxBound() {
                    return bound;
                }
            });
            if (padded != ref instanceof PaddedMailboxes.Padded) {
                throw new IllegalStateException("expected a " + (padded ? "padded" : "compact") + " mailbox, got " + ref.getClass());
            }
        }

        @Operation
        public void tell(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.NORMAL);
        }

        @Operation
        public void tellWithHighPriority(@Param(gen = ThreadIdGen.class) int sender) {
            send(sender, Kind.HIGH);
        }

        @Operation(runOnce = true)
        public void stop() {
            system.stop(id);
            stopReturned = true;
        }

        @Operation
        public void runTurn() {
            executor.runOne();
        }

        final void send(int sender, Kind kind) {
            boolean update = kind == Kind.UPDATE || kind == Kind.FAILING_UPDATE;
            Msg msg = update ? new UpdateMsg(sender, nextSeq[sender]++, kind) : new Msg(sender, nextSeq[sender]++, kind);
            if (update) {
                updateSeen = true;
            }
            told.add(msg);
            switch (kind) {
                case HIGH, UPDATE, FAILING_UPDATE -> ref.tellWithHighPriority(msg);
                case TRY -> msg.refused = !ref.tryTell(msg);
                default -> ref.tell(msg);
            }
            if (msg.high()) {
                highsTold.add(msg);
            }
        }

        void violation(String what) {
            violations.add(what);
        }

        /** Runs after the whole scenario, when no operation is in flight. */
        @Validate
        public void checkInvariants() {
            int live = system.getActorCount();
            if (live < 0 || live > 1) {
                violation("getActorCount() is " + live + " with one actor created");
            }
            if (bound != null) {
                long waiting = told.stream()
                        .filter(m -> !m.high() && !m.refused && m.fates() == 0)
                        .count();
                if (waiting > bound.capacity()) {
                    violation("bound exceeded: " + waiting + " normal-priority messages accepted and waiting with a capacity of "
                            + bound.capacity() + " (" + told + ")");
                }
            }
            executor.runAll(TURN_LIMIT);
            system.stop(id);
            stopReturned = true;
            executor.runAll(TURN_LIMIT);
            if (executor.queued() > 0) {
                violation("turns still queued after " + TURN_LIMIT + " ran");
            }
            long stoppedCallbacks = 0;
            for (Msg m : told) {
                stoppedCallbacks += m.stopped.get();
                if (m.refused && m.fates() != 0) {
                    violation(m + " was refused by tryTell but got " + m.fates() + " fate(s)");
                } else if (!m.refused && (m.processed.get() > 1 || m.stopped.get() > 1 || m.fates() != 1)) {
                    violation(m + " was processed " + m.processed.get() + " time(s) and told stopped "
                            + m.stopped.get() + " time(s) (" + m.reason + "); exactly one fate expected");
                }
            }
            for (Subject s : instances) {
                if (reviving ? s.owesDestroy : s.destroys.get() != 1) {
                    violation("actor instance #" + s.number + " was destroyed " + s.destroys.get() + " time(s)"
                            + (reviving ? ", not after its last re-init" : ""));
                }
            }
            if (system.getActorCount() != 0) {
                violation("getActorCount() is " + system.getActorCount() + " after the only actor was stopped and destroyed");
            }
            if (system.getNotProcessedCount() != stoppedCallbacks) {
                violation("getNotProcessedCount() is " + system.getNotProcessedCount() + " but " + stoppedCallbacks
                        + " onTbActorStopped callbacks ran");
            }
            if (!violations.isEmpty()) {
                throw new AssertionError(String.join("; ", violations));
            }
        }

        private void enter(String what) {
            if (!inCallback.compareAndSet(false, true)) {
                violation("two turns of one actor at once: " + what + " began while another callback ran");
            }
        }

        private void leave() {
            inCallback.set(false);
        }

        private void snapshotHighs() {
            highsAtPreviousStart = highsTold.toArray(new Msg[0]);
        }

        private void onProcess(Subject subject, Msg m) {
            if (subject.destroyed) {
                violation("instance #" + subject.number + " processed " + m + " after its destroy");
            }
            if (!subject.initialized) {
                violation("instance #" + subject.number + " processed " + m + " before a successful init");
            }
            if (m.processed.incrementAndGet() != 1) {
                violation(m + " processed twice");
            }
            if (m.stopped.get() != 0) {
                violation(m + " processed after onTbActorStopped(" + m.reason + ")");
            }
            int[] last = lastProcessed[m.sender];
            int lane = m.high() ? 1 : 0;
            if (m.seq <= last[lane]) {
                violation("FIFO per sender broken: " + m + " processed after #" + last[lane] + " of the same sender");
            }
            last[lane] = m.seq;
            if (!m.high()) {
                for (Msg h : highsAtPreviousStart) {
                    if (h.fates() == 0) {
                        violation("normal " + m + " processed before " + h + ", told before the previous callback began");
                    }
                }
            }
            snapshotHighs();
        }

        /** The actor under test; it reports rather than throws, since the runtime catches what its callbacks throw. */
        final class Subject extends AbstractTbActor {
            final int number;
            final AtomicInteger destroys = new AtomicInteger();
            /** Attached, or re-initialised, since the last destroy: one destroy is owed. */
            volatile boolean owesDestroy = true;
            private int initAttempts;
            private boolean initialized;
            private boolean destroyed;

            Subject(int number) {
                this.number = number;
            }

            @Override
            public void init(TbActorCtx context) throws TbActorException {
                enter("init of instance #" + number);
                try {
                    super.init(context);
                    if (destroyed && !reviving) {
                        violation("instance #" + number + " initialised after its destroy");
                    }
                    initAttempts++;
                    owesDestroy = true;
                    if (reviving && !updateSeen) {
                        throw new TbActorException("init fails until an update comes", null);
                    }
                    destroyed = false;
                    snapshotHighs();
                    if (failFirstInit && number == 1 && initAttempts == 1) {
                        throw new TbActorException("first init fails on purpose", null);
                    }
                    initialized = true;
                } finally {
                    leave();
                }
            }

            @Override
            public boolean process(TbActorMsg msg) {
                enter("process of instance #" + number);
                try {
                    Msg m = (Msg) msg;
                    onProcess(this, m);
                    if (m.kind == Kind.FAILING) {
                        throw new IllegalStateException("fails on purpose");
                    }
                    if (m.kind == Kind.FAILING_UPDATE) {
                        throw new TbActorUpdateException("update fails on purpose", null);
                    }
                    return true;
                } finally {
                    leave();
                }
            }

            @Override
            public void destroy(TbActorStopReason stopReason, Throwable cause) {
                enter("destroy of instance #" + number);
                try {
                    destroys.incrementAndGet();
                    if (!owesDestroy) {
                        violation("instance #" + number + " destroyed again (" + stopReason + ") without an init since its "
                                + "last destroy");
                    }
                    owesDestroy = false;
                    destroyed = true;
                } finally {
                    leave();
                }
            }

            @Override
            public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
                return reviving ? InitFailureStrategy.stop() : InitFailureStrategy.retryImmediately();
            }

            @Override
            public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
                return ProcessFailureStrategy.restart();
            }
        }
    }
}
