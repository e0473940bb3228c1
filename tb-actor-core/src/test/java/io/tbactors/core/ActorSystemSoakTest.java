package io.tbactors.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.api.TbStringActorId;
import io.tbactors.api.TbTimer;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.dispatch.NamedThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A soak of the whole runtime, not run by {@code ./mvnw verify}: for {@code -Dtb.soak.minutes=N} minutes several
 * threads tell, tell with high priority, tryTell, ask, create (roots and children, bounded or not, some failing
 * their init and retrying), stop, make actors restart ({@link ProcessFailureStrategy#restart()}), resume or stop
 * through failing messages, and have actors schedule and cancel timers. Invariants are checked as it goes (one
 * callback of an actor at a time, nothing after destroy, per-sender FIFO, a once-timer whose {@code cancel()}
 * returned true never delivers) and at the end: live count equal to the registry and to the incarnations not yet
 * destroyed, children listed only when registered, no periodic timer of a replaced instance still firing, then
 * after a system stop every message exactly one fate, every actor instance destroyed once per attach or re-init, no
 * ask left incomplete and no dispatcher or scheduler thread left. Some children passivate (an idle timeout of a few
 * milliseconds), updates revive actors whose init gave up, and one fork-join dispatcher is now and then replaced and
 * destroyed while actors are created on it: no actor may live on it once {@code destroyDispatcher} returned. See
 * tb-actor-core/README.md, "Testing the runtime's concurrency", for the command.
 */
@EnabledIfSystemProperty(named = "tb.soak.minutes", matches = "\\d+(\\.\\d+)?")
class ActorSystemSoakTest {

    private static final Logger log = Logger.getLogger("tb.soak");
    private static final int WORKERS = 3;
    private static final int IDS = 48;
    private static final int PARENTS = 6;
    private static final int MAX_IN_FLIGHT = 20_000;
    private static final String[] DISPATCHERS = {"soak-fj", "soak-single", "soak-pool"};

    private final DefaultTbActorSystem system = new DefaultTbActorSystem(TbActorSystemSettings.builder()
            .actorThroughput(5)
            .schedulerPoolSize(2)
            .maxActorInitAttempts(3)
            .maxRestarts(5)
            .restartWindow(Duration.ofSeconds(1))
            .restartBackoff(Duration.ofMillis(1))
            .shutdownTimeout(Duration.ofSeconds(15))
            .passivationTick(Duration.ofMillis(2))
            .build());
    private final TbActorId[] ids = new TbActorId[IDS];
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Incarnation> incarnations = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Instance> instances = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Msg> withoutFate = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<CompletableFuture<TbActorMsg>> asks = new ConcurrentLinkedQueue<>();
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final LongAdder accepted = new LongAdder();
    private final LongAdder processed = new LongAdder();
    private final LongAdder stopped = new LongAdder();
    private final Map<TbActorStopReason, LongAdder> stopReasons = new ConcurrentHashMap<>();
    private final LongAdder refused = new LongAdder();
    private final LongAdder notRegistered = new LongAdder();
    private final LongAdder creates = new LongAdder();
    private final LongAdder stops = new LongAdder();
    private final LongAdder restartsAsked = new LongAdder();
    private final LongAdder onceTimersCancelled = new LongAdder();
    private final LongAdder ticks = new LongAdder();
    private final AtomicLong askReplies = new AtomicLong();
    private final LongAdder dispatchersRemoved = new LongAdder();
    private final LongAdder createsRefused = new LongAdder();
    private final LongAdder updates = new LongAdder();
    private final AtomicInteger revivals = new AtomicInteger();
    /** A fork-join dispatcher that worker 0 now and then replaces by a new one and destroys. */
    private volatile String churnedDispatcher = "soak-churn-0";

    @Test
    void everyPromiseHoldsUnderMinutesOfRandomWork() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("tb.soak.minutes"));
        Set<Thread> threadsBefore = Thread.getAllStackTraces().keySet();
        system.createDispatcher(DISPATCHERS[0], DispatcherKind.FORK_JOIN, 2);
        system.createDispatcher(DISPATCHERS[1], DispatcherKind.SINGLE, 1);
        system.createDispatcher(DISPATCHERS[2], Executors.newFixedThreadPool(2, new NamedThreadFactory(DISPATCHERS[2])));
        system.createDispatcher(churnedDispatcher, DispatcherKind.FORK_JOIN, 2);
        for (int i = 0; i < IDS; i++) {
            ids[i] = new TbStringActorId((i < PARENTS ? "parent-" : "child-") + i);
        }
        for (int i = 0; i < PARENTS; i++) {
            create(ids[i], ThreadLocalRandom.current());
        }
        long deadline = System.nanoTime() + (long) (minutes * 60e9);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            Thread t = new Thread(() -> work(worker, deadline), "soak-worker-" + w);
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            t.join(TimeUnit.MINUTES.toMillis((long) Math.ceil(minutes) + 2));
            assertThat(t.isAlive()).as("worker %s ended", t.getName()).isFalse();
        }

        checkReplacedInstancesTimersStopped();
        checkLiveCountMatchesRegistry();
        checkChildrenListsOnlyRegisteredActors();

        boolean clean = system.stop(Duration.ofSeconds(15));
        awaitOrRecord("every ask completes after the system stop",
                () -> asks.stream().allMatch(CompletableFuture::isDone));
        long fates = processed.sum() + stopped.sum();
        String summary = String.format("soak %.1f min: %d creates, %d stops, %d restarts asked, %d messages accepted "
                        + "(%d processed, %d told %s), %d refused by tryTell, %d to unregistered ids, %d asks (%d replied), "
                        + "%d timer ticks, %d once-timers cancelled, %d actor instances, %d updates (%d revivals of INIT_FAILED), "
                + "%d dispatchers removed (%d creates refused on them), %d violations",
                minutes, creates.sum(), stops.sum(), restartsAsked.sum(), accepted.sum(), processed.sum(), stopped.sum(),
                stopReasons, refused.sum(), notRegistered.sum(), asks.size(), askReplies.get(), ticks.sum(),
                onceTimersCancelled.sum(), instances.size(), updates.sum(), revivals.get(), dispatchersRemoved.sum(),
                createsRefused.sum(), violations.size());
        for (Msg m : withoutFate) {
            if (m.fates.get() != 0) {
                violations.add(m + " was refused or not registered yet got a fate");
            }
        }
        for (Instance instance : instances) {
            if (instance.owesDestroy) {
                violations.add(instance + " not destroyed since it was created or re-initialised (" + instance.destroys.get()
                        + " destroy(s) in all)");
            }
        }
        Set<Thread> stray = ConcurrentHashMap.newKeySet();
        awaitOrRecord("no dispatcher or scheduler thread of the system left", () -> {
            stray.clear();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                boolean ours = t.getName().startsWith("soak-") || t.getName().startsWith("tb-actors-scheduler");
                if (ours && t.isAlive() && !threadsBefore.contains(t) && !t.getName().startsWith("soak-worker")) {
                    stray.add(t);
                }
            }
            return stray.isEmpty();
        });
        log.info(summary);
        String grouped = groupViolations();
        if (!grouped.isEmpty()) {
            log.warning("soak violations, by kind:" + grouped);
        }
        assertThat(grouped).as(summary).isEmpty();
        assertThat(clean).as("system stop ended within its timeout").isTrue();
        assertThat(system.getActorCount()).as("live actors after system stop").isZero();
        assertThat(fates).as("fates (processed + told) of accepted messages; " + summary).isEqualTo(accepted.sum());
    }

    /** Waits for a condition; when it never holds, records a violation instead of ending the soak before its report. */
    private void awaitOrRecord(String what, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(Duration.ofSeconds(30)).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            violations.add("not within 30 s: " + what);
        }
    }

    /** @return each kind of violation (its text with the numbers blanked) with its count and first example */
    private String groupViolations() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        Map<String, String> examples = new java.util.HashMap<>();
        for (String v : violations) {
            String kind = v.replaceAll("\\d+", "N");
            counts.merge(kind, 1, Integer::sum);
            examples.putIfAbsent(kind, v);
        }
        StringBuilder sb = new StringBuilder();
        counts.forEach((kind, n) -> sb.append("\n  ").append(n).append(" x ").append(kind)
                .append("\n      e.g. ").append(examples.get(kind)));
        return sb.toString();
    }

    // ---------------------------------------------------------------- the random work

    private void work(int worker, long deadline) {
        long seq = 0;
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        while (System.nanoTime() - deadline < 0) {
            TbActorId id = ids[rnd.nextInt(IDS)];
            int dice = rnd.nextInt(100);
            try {
                if (dice < 30) {
                    send(worker, seq++, id, Kind.NORMAL, false);
                } else if (dice < 40) {
                    send(worker, seq++, id, Kind.HIGH, false);
                } else if (dice < 50) {
                    send(worker, seq++, id, Kind.TRY, false);
                } else if (dice < 55) {
                    send(worker, seq++, id, Kind.FAIL, false);
                } else if (dice < 58) {
                    send(worker, seq++, id, Kind.NORMAL, true);
                } else if (dice < 68) {
                    send(worker, seq++, id, Kind.TIMER, false);
                } else if (dice < 73) {
                    ask(worker, seq++, id);
                } else if (dice < 95) {
                    if (system.getActor(id) == null) {
                        create(id, rnd);
                    }
                } else if (dice < 97 && !id.toString().startsWith("parent-")) {
                    // parents are never stopped, so a child linked to them after its stop stays visible
                    stops.increment();
                    system.stop(id);
                } else if (dice < 99) {
                    // revives an actor whose init gave up (INIT_FAILED); to any other it is a high-priority message
                    send(worker, seq++, id, Kind.UPDATE, false);
                } else if (worker == 0 && rnd.nextInt(20) == 0) {
                    churnDispatcher();
                }
            } catch (TbActorNotRegisteredException expected) {
                // the parent of a child to create was not registered
            } catch (IllegalArgumentException refusedOnRemovedDispatcher) {
                createsRefused.increment();
            }
        }
    }

    /** Replaces the churned dispatcher by a new one, destroys the old, and checks that none of its actors lives on. */
    private void churnDispatcher() {
        String old = churnedDispatcher;
        String next = "soak-churn-" + (Integer.parseInt(old.substring(old.lastIndexOf('-') + 1)) + 1);
        system.createDispatcher(next, DispatcherKind.FORK_JOIN, 2);
        churnedDispatcher = next;
        system.destroyDispatcher(old);
        dispatchersRemoved.increment();
        Map<String, Integer> left = system.getActorCountsByDispatcherAndType().get(old);
        if (left != null && left.values().stream().mapToInt(Integer::intValue).sum() > 0) {
            violations.add("actors live on dispatcher " + old + " after destroyDispatcher returned: " + left);
        }
    }

    private void send(int worker, long seq, TbActorId id, Kind kind, boolean byId) {
        TbActorRef ref = system.getActor(id);
        if (ref == null || !inFlight.tryAcquire()) {
            return;
        }
        Msg msg = kind == Kind.FAIL ? new Msg(worker, seq, kind, randomStrategy())
                : kind == Kind.UPDATE ? new UpdateMsg(worker, seq) : new Msg(worker, seq, kind, null);
        try {
            switch (kind) {
                case HIGH -> ref.tellWithHighPriority(msg);
                case UPDATE -> {
                    updates.increment();
                    ref.tellWithHighPriority(msg);
                }
                case TRY -> {
                    if (!ref.tryTell(msg)) {
                        refused.increment();
                        withoutFate.add(msg);
                        inFlight.release();
                        return;
                    }
                }
                default -> {
                    if (byId) {
                        system.tell(id, msg);
                    } else {
                        ref.tell(msg);
                    }
                }
            }
            accepted.increment();
        } catch (TbActorNotRegisteredException e) {
            notRegistered.increment();
            withoutFate.add(msg);
            inFlight.release();
        }
    }

    private static ProcessFailureStrategy randomStrategy() {
        int dice = ThreadLocalRandom.current().nextInt(10);
        return dice < 6 ? ProcessFailureStrategy.restart() : dice < 9 ? ProcessFailureStrategy.resume() : ProcessFailureStrategy.stop();
    }

    private void ask(int worker, long seq, TbActorId id) {
        if (!inFlight.tryAcquire()) {
            return;
        }
        CompletableFuture<TbActorMsg> reply = system.ask(id, replyTo -> {
            Msg request = new Msg(worker, seq, Kind.ASK, null);
            request.replyTo = replyTo;
            return request;
        }, Duration.ofMillis(200));
        asks.add(reply);
        reply.whenComplete((r, failure) -> inFlight.release());
    }

    private void create(TbActorId id, ThreadLocalRandom rnd) {
        Incarnation incarnation = new Incarnation(id, rnd);
        TbActorCreator creator = new TbActorCreator() {
            @Override
            public TbActorId createActorId() {
                return id;
            }

            @Override
            public TbActor createActor() {
                Instance instance = new Instance(incarnation, incarnation.generations.incrementAndGet());
                if (instance.generation == 1) {
                    incarnations.add(incarnation);
                }
                instances.add(instance);
                return instance;
            }

            @Override
            public TbMailboxBound getMailboxBound() {
                return incarnation.bound;
            }
        };
        int d = rnd.nextInt(DISPATCHERS.length + 1);
        String dispatcher = d < DISPATCHERS.length ? DISPATCHERS[d] : churnedDispatcher;
        int index = Integer.parseInt(id.toString().substring(id.toString().indexOf('-') + 1));
        creates.increment();
        if (index < PARENTS || rnd.nextInt(4) == 0) {
            system.createRootActor(dispatcher, creator);
        } else {
            system.createChildActor(dispatcher, creator, ids[rnd.nextInt(PARENTS)]);
        }
    }

    // ---------------------------------------------------------------- end checks

    /**
     * No periodic tick of a replaced instance may arrive once the restart is over. Round 1 of barriers is processed
     * after every failing message the workers sent, so no restart follows it; whatever is processed after round 2
     * was queued after round 2 was told (one FIFO queue for normal priority), so after every restart.
     */
    private void checkReplacedInstancesTimersStopped() throws InterruptedException {
        // per id, the first incarnation not over, found in one pass (a soak of minutes creates hundreds of thousands)
        Map<TbActorId, Incarnation> firstLive = new HashMap<>();
        for (Incarnation inc : incarnations) {
            if (!inc.isOver()) {
                firstLive.putIfAbsent(inc.id, inc);
            }
        }
        List<Incarnation> live = new ArrayList<>();
        for (TbActorId id : ids) {
            Incarnation inc = firstLive.get(id);
            if (inc != null) {
                live.add(inc);
            }
        }
        for (int round = 1; round <= 2; round++) {
            int r = round;
            for (Incarnation incarnation : live) {
                TbActorRef ref = system.getActor(incarnation.id);
                if (ref == null) {
                    incarnation.barrierLost = true;
                    continue;
                }
                inFlight.acquire();
                Msg barrier = new Msg(WORKERS, round, Kind.BARRIER, null);
                barrier.incarnation = incarnation;
                ref.tell(barrier);
                accepted.increment();
            }
            awaitOrRecord("every live actor processes barrier " + r, () -> live.stream()
                    .allMatch(inc -> inc.isOver() || inc.barrierLost || inc.barrierRound >= r));
        }
        // each running incarnation sees a few ticks of its own timer after round 2; a timer of a replaced instance
        // that survived the restart, firing at a similar period, would have been processed meanwhile too
        awaitOrRecord("every running actor with a periodic timer sees 3 ticks after the barriers", () -> live.stream()
                .allMatch(inc -> inc.isOver() || inc.barrierLost || !inc.periodicInInit || !inc.initialized
                        || inc.currentTicksAfterBarrier.get() >= 3));
    }

    private void checkLiveCountMatchesRegistry() {
        try {
            liveCountMatchesRegistry();
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            violations.add("live count, registry and incarnations never agreed within 30 s: " + e.getMessage());
        }
    }

    private void liveCountMatchesRegistry() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            int registered = 0;
            int initFailed = 0;
            for (TbActorId id : ids) {
                if (system.getActor(id) != null) {
                    registered++;
                    // as in ThingsBoard, an actor whose init gave up was destroyed but stays registered
                    if (system.getActorStats(id).map(stats -> "INIT_FAILED".equals(stats.state())).orElse(false)) {
                        initFailed++;
                    }
                }
            }
            int inRegistryByType = system.getActorCountsByDispatcherAndType().values().stream()
                    .flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
            long liveIncarnations = incarnations.stream().filter(inc -> !inc.isOver()).count();
            assertThat(system.getActorCount()).as("getActorCount() vs registered ids").isEqualTo(registered);
            assertThat(inRegistryByType).as("registry by dispatcher and type vs registered ids").isEqualTo(registered);
            assertThat(liveIncarnations).as("incarnations created and not destroyed vs registered ids not in INIT_FAILED")
                    .isEqualTo(registered - initFailed);
        });
    }

    private void checkChildrenListsOnlyRegisteredActors() {
        for (int p = 0; p < PARENTS; p++) {
            List<TbActorId> children = system.filterChildren(ids[p], id -> true);
            Set<TbActorId> distinct = new HashSet<>();
            for (TbActorId child : children) {
                if (!distinct.add(child)) {
                    violations.add("filterChildren(" + ids[p] + ") lists " + child + " twice");
                }
            }
            for (TbActorId child : children) {
                TbActorId parent = ids[p];
                // a stop unregisters, then unlinks: give one in flight the time to finish before calling it a leak
                if (system.getActor(child) == null && !isUnlinkedSoon(parent, child)) {
                    violations.add("filterChildren(" + parent + ") lists " + child + ", which is not registered");
                }
            }
        }
    }

    private boolean isUnlinkedSoon(TbActorId parent, TbActorId child) {
        try {
            await().atMost(Duration.ofSeconds(2)).until(() -> system.getActor(child) != null
                    || !system.filterChildren(parent, id -> true).contains(child));
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    // ---------------------------------------------------------------- messages and actors

    enum Kind { NORMAL, HIGH, TRY, FAIL, TIMER, ASK, BARRIER, UPDATE }

    /** A tracked message: it must get exactly one fate. */
    class Msg implements TbActorMsg {
        final int sender;
        final long seq;
        final Kind kind;
        final ProcessFailureStrategy strategy;
        final AtomicInteger fates = new AtomicInteger();
        volatile TbActorRef replyTo;
        volatile Incarnation incarnation;

        Msg(int sender, long seq, Kind kind, ProcessFailureStrategy strategy) {
            this.sender = sender;
            this.seq = seq;
            this.kind = kind;
            this.strategy = strategy;
        }

        boolean high() {
            return kind == Kind.HIGH || kind == Kind.UPDATE;
        }

        void markProcessed() {
            if (fates.incrementAndGet() != 1) {
                violations.add(this + " processed after another fate");
            }
            if (kind != Kind.ASK) {
                // an ask's request counts apart: ask() may build it and then not send it (the target stopped first)
                processed.increment();
                inFlight.release();
            }
        }

        @Override
        public void onTbActorStopped(TbActorStopReason reason) {
            if (fates.incrementAndGet() != 1) {
                violations.add(this + " told " + reason + " after another fate");
            }
            if (kind == Kind.BARRIER && incarnation != null) {
                incarnation.barrierLost = true;
            }
            if (kind != Kind.ASK) {
                stopped.increment();
                stopReasons.computeIfAbsent(reason, r -> new LongAdder()).increment();
                inFlight.release();
            }
        }

        @Override
        public String toString() {
            return kind + "(worker " + sender + " #" + seq + ")";
        }
    }

    /** An update: told with high priority to an actor whose init gave up, it runs init again (then is processed). */
    final class UpdateMsg extends Msg implements TbActorUpdateMsg {
        UpdateMsg(int sender, long seq) {
            super(sender, seq, Kind.UPDATE, null);
        }
    }

    /** A timer's message; not tracked for fates, since a periodic one is told again and again. */
    record Tick(Incarnation incarnation, int generation, boolean periodic, AtomicBoolean cancelReturnedTrue,
                AtomicBoolean delivered) implements TbActorMsg {
        static Tick once(Incarnation incarnation, int generation) {
            return new Tick(incarnation, generation, false, new AtomicBoolean(), new AtomicBoolean());
        }

        static Tick periodic(Incarnation incarnation, int generation) {
            return new Tick(incarnation, generation, true, new AtomicBoolean(), new AtomicBoolean());
        }
    }

    /** The reply to an ask. */
    record Reply() implements TbActorMsg {
    }

    /** A timer with its message. */
    record TimerEntry(TbTimer timer, Tick tick) {
    }

    /** One mailbox's life: from a create that made a new actor to its final destroy; restarts keep it. */
    final class Incarnation {
        final TbActorId id;
        final TbMailboxBound bound;
        final int initFailures;
        final boolean retryAtOnce;
        final boolean periodicInInit;
        final boolean parent;
        /** Sets an idle timeout in init, so it is passivated when left alone (children only). */
        final boolean passivates;
        final AtomicInteger generations = new AtomicInteger();
        final AtomicBoolean inCallback = new AtomicBoolean();
        final AtomicInteger currentTicksAfterBarrier = new AtomicInteger();
        // touched only inside the actor's callbacks, which are checked never to overlap
        final Map<Integer, long[]> lastSeq = new ConcurrentHashMap<>();
        volatile int currentGeneration;
        volatile int barrierRound;
        volatile boolean barrierLost;
        volatile boolean initialized;
        volatile boolean ended;
        // the generation last destroyed for a restart; a stop that lands during that destroy ends the actor there
        volatile int restartedGeneration;

        /**
         * @return whether this incarnation is over: destroyed for good, or destroyed for a restart that a stop cut
         *         short (no newer generation came; checked when nothing is in flight)
         */
        boolean isOver() {
            return ended || restartedGeneration == generations.get();
        }

        Incarnation(TbActorId id, ThreadLocalRandom rnd) {
            this.id = id;
            int b = rnd.nextInt(3);
            int capacity = 1 + rnd.nextInt(8);
            this.bound = b == 0 ? null : b == 1 ? TbMailboxBound.rejectNewest(capacity) : TbMailboxBound.dropOldest(capacity);
            this.parent = id.toString().startsWith("parent-");
            int f = rnd.nextInt(10);
            // a parent never stops by itself (no init giving up, failures resumed): its child list must stay right
            this.initFailures = f < 7 ? 0 : f < 9 ? 1 + rnd.nextInt(2) : parent ? 2 : 3;
            this.retryAtOnce = rnd.nextBoolean();
            this.periodicInInit = rnd.nextBoolean();
            this.passivates = !parent && rnd.nextInt(5) == 0;
        }

        void enter(String what) {
            if (!inCallback.compareAndSet(false, true)) {
                violations.add("two turns of " + id + " at once: " + what + " began while another callback ran");
            }
        }

        void leave() {
            inCallback.set(false);
        }

        void checkFifo(Msg m) {
            if (m.kind == Kind.BARRIER) {
                return;
            }
            long[] last = lastSeq.computeIfAbsent(m.sender, s -> new long[] {-1, -1});
            int lane = m.high() ? 1 : 0;
            if (m.seq <= last[lane]) {
                violations.add("FIFO per sender broken at " + id + ": " + m + " after #" + last[lane]);
            }
            last[lane] = m.seq;
        }
    }

    /** One actor instance; a restart makes a new one of the same incarnation. */
    final class Instance extends AbstractTbActor {
        final Incarnation incarnation;
        final int generation;
        final AtomicInteger destroys = new AtomicInteger();
        /** Created, or re-initialised after its failed init destroyed it, and not destroyed since: one destroy is owed. */
        volatile boolean owesDestroy = true;
        private final List<TimerEntry> timers = new ArrayList<>();
        private int initAttempts;
        private boolean destroyed;
        private boolean destroyedByInitFailure;

        Instance(Incarnation incarnation, int generation) {
            this.incarnation = incarnation;
            this.generation = generation;
        }

        @Override
        public void init(TbActorCtx context) throws TbActorException {
            incarnation.enter("init");
            try {
                super.init(context);
                if (destroyed && !destroyedByInitFailure) {
                    violations.add(this + " initialised after its destroy");
                }
                initAttempts++;
                owesDestroy = true;
                if (generation == 1 && initAttempts <= incarnation.initFailures) {
                    throw new TbActorException("init attempt " + initAttempts + " fails on purpose", null);
                }
                if (destroyedByInitFailure) {
                    // an update revived the actor after its init gave up
                    revivals.incrementAndGet();
                    destroyed = false;
                    destroyedByInitFailure = false;
                    incarnation.ended = false;
                }
                if (incarnation.passivates) {
                    context.setIdleTimeout(Duration.ofMillis(5 + ThreadLocalRandom.current().nextInt(20)));
                }
                incarnation.currentGeneration = generation;
                incarnation.initialized = true;
                if (incarnation.periodicInInit) {
                    context.schedulePeriodically(Tick.periodic(incarnation, generation), Duration.ofMillis(1),
                            Duration.ofMillis(3));
                }
            } finally {
                incarnation.leave();
            }
        }

        @Override
        public boolean process(TbActorMsg msg) {
            incarnation.enter("process");
            try {
                if (destroyed) {
                    violations.add(this + " processed " + msg + " after its destroy");
                }
                if (msg instanceof Tick tick) {
                    onTick(tick);
                    return true;
                }
                Msg m = (Msg) msg;
                incarnation.checkFifo(m);
                m.markProcessed();
                switch (m.kind) {
                    case FAIL -> {
                        if (m.strategy.isRestart() && !incarnation.parent) {
                            restartsAsked.increment();
                        }
                        throw new IllegalStateException("fails on purpose, then " + m.strategy);
                    }
                    case ASK -> {
                        m.replyTo.tell(new Reply());
                        askReplies.incrementAndGet();
                    }
                    case TIMER -> timerCommand();
                    case BARRIER -> incarnation.barrierRound = (int) m.seq;
                    default -> {
                    }
                }
                return true;
            } finally {
                incarnation.leave();
            }
        }

        private void onTick(Tick tick) {
            ticks.increment();
            if (!tick.periodic()) {
                tick.delivered().set(true);
                if (tick.cancelReturnedTrue().get()) {
                    violations.add("a once-timer of " + incarnation.id + " delivered after its cancel() returned true");
                }
            }
            if (tick.periodic() && incarnation.barrierRound == 2) {
                if (tick.generation() == generation) {
                    incarnation.currentTicksAfterBarrier.incrementAndGet();
                } else if (tick.generation() < generation) {
                    violations.add("a periodic timer of " + incarnation.id + " generation " + tick.generation()
                            + " fired after its instance was replaced by generation " + generation);
                }
            }
        }

        private void timerCommand() {
            ThreadLocalRandom rnd = ThreadLocalRandom.current();
            int dice = rnd.nextInt(4);
            if (dice == 3) {
                // cancel at once while the scheduler may be firing it: true must mean it never arrives
                Tick tick = Tick.once(incarnation, generation);
                TbTimer timer = ctx.scheduleOnce(tick, Duration.ZERO);
                if (timer.cancel()) {
                    onceTimersCancelled.increment();
                    tick.cancelReturnedTrue().set(true);
                    if (tick.delivered().get()) {
                        violations.add("cancel() of a once-timer of " + incarnation.id + " returned true after its message was processed");
                    }
                }
            } else if (dice == 0 || timers.isEmpty()) {
                Tick tick = Tick.once(incarnation, generation);
                timers.add(new TimerEntry(ctx.scheduleOnce(tick, Duration.ofMillis(rnd.nextInt(3))), tick));
            } else if (dice == 1 && timers.size() < 4) {
                Tick tick = Tick.periodic(incarnation, generation);
                timers.add(new TimerEntry(ctx.schedulePeriodically(tick, Duration.ofMillis(rnd.nextInt(3)),
                        Duration.ofMillis(2 + rnd.nextInt(3))), tick));
            } else {
                TimerEntry entry = timers.remove(rnd.nextInt(timers.size()));
                boolean cancelled = entry.timer().cancel();
                if (cancelled && !entry.tick().periodic()) {
                    onceTimersCancelled.increment();
                    entry.tick().cancelReturnedTrue().set(true);
                    if (entry.tick().delivered().get()) {
                        violations.add("cancel() of a once-timer of " + incarnation.id + " returned true after its message was processed");
                    }
                }
            }
        }

        @Override
        public void destroy(TbActorStopReason stopReason, Throwable cause) {
            incarnation.enter("destroy");
            try {
                destroys.incrementAndGet();
                if (!owesDestroy) {
                    violations.add(this + " destroyed again (" + stopReason + ") with no init since its last destroy");
                }
                owesDestroy = false;
                destroyed = true;
                destroyedByInitFailure = stopReason == TbActorStopReason.INIT_FAILED;
                if (stopReason != TbActorStopReason.RESTARTED) {
                    incarnation.ended = true;
                } else {
                    incarnation.restartedGeneration = generation;
                }
            } finally {
                incarnation.leave();
            }
        }

        @Override
        public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
            return incarnation.retryAtOnce ? InitFailureStrategy.retryImmediately()
                    : InitFailureStrategy.retryWithDelay(1 + ThreadLocalRandom.current().nextInt(3));
        }

        @Override
        public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
            if (incarnation.parent) {
                return ProcessFailureStrategy.resume();
            }
            return msg instanceof Msg m && m.strategy != null ? m.strategy : ProcessFailureStrategy.resume();
        }

        @Override
        public String toString() {
            return "instance " + generation + " of " + incarnation.id;
        }
    }
}
