package io.tbactors.testkit;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorRef;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.TbActorSystemSettings;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.TbActorSystemListener;
import io.tbactors.core.observe.TbMessageFateObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An actor system set up for a test, with one dispatcher named {@value #DEFAULT_DISPATCHER} and the dead letters it
 * produced. Three modes:
 *
 * <ul>
 *   <li>{@link Mode#THREADS}: a real fork-join dispatcher and scheduler, as in production; wait with probes.</li>
 *   <li>{@link Mode#CALLING_THREAD}: every turn runs inside the {@code tell} that caused it, and a
 *       {@link ManualScheduler} clock that only {@link #advance(Duration)} moves: no waiting, no threads.</li>
 *   <li>{@link Mode#MANUAL}: turns queue on a {@link ManualDispatcher} until the test runs them, with the same
 *       manual clock: the test decides which actor moves when.</li>
 * </ul>
 *
 * <p>Close it (or let {@link TbActorSystemExtension} do it) to stop the system.
 */
public final class TbTestActorSystem implements AutoCloseable {

    /** Name of the dispatcher every test system has. */
    public static final String DEFAULT_DISPATCHER = "default";

    /** How the test system runs turns and timers. */
    public enum Mode {
        /** Real threads and a real clock. */
        THREADS,
        /** Turns on the calling thread, manual clock. */
        CALLING_THREAD,
        /** Turns queued until the test runs them, manual clock. */
        MANUAL
    }

    private final Mode mode;
    private final DefaultTbActorSystem system;
    private final @Nullable ManualScheduler scheduler;
    private final @Nullable ManualDispatcher dispatcher;
    private final TbActorProbes probes;
    private final List<DeadLetter> deadLetters = Collections.synchronizedList(new ArrayList<>());
    private final MessageLedger ledger;
    private volatile boolean deadLettersAllowed;
    private final FailureRecorder failures;
    private final List<Class<? extends Throwable>> expectedFailures = new CopyOnWriteArrayList<>();
    private volatile boolean failuresAllowed;

    private TbTestActorSystem(Builder builder) {
        this.mode = builder.mode;
        this.scheduler = mode == Mode.THREADS ? null : new ManualScheduler();
        this.dispatcher = mode == Mode.MANUAL ? new ManualDispatcher() : null;
        TbActorSystemSettings.Builder settings = TbActorSystemSettings.builder().shutdownTimeout(Duration.ofSeconds(5));
        if (scheduler != null) {
            ManualScheduler manual = scheduler;
            settings.scheduler(() -> manual).nanoClock(manual::nanoTime);
        }
        builder.settings.accept(settings);
        // the ledger sees every message's fate; an observer the test's settings gave still gets each event after it
        TbMessageFateObserver own = settings.build().getMessageFateObserver();
        this.ledger = new MessageLedger(own);
        settings.messageFateObserver(ledger);
        this.failures = new FailureRecorder(builder.listener);
        this.system = new DefaultTbActorSystem(settings.build(), failures);
        @Nullable ExecutorService turns = mode == Mode.THREADS ? null : dispatcher != null ? dispatcher : new CallingThreadExecutor();
        List<String> names = new ArrayList<>();
        names.add(DEFAULT_DISPATCHER);
        names.addAll(builder.dispatchers);
        for (String name : names) {
            if (turns == null) {
                system.createDispatcher(name, DispatcherKind.FORK_JOIN, builder.threads);
            } else {
                // one queue (or the calling thread) for every dispatcher, so the test steps them all alike
                system.createDispatcher(name, turns);
            }
        }
        system.addDeadLetterListener(deadLetters::add);
        this.probes = new TbActorProbes(system, DEFAULT_DISPATCHER);
    }

    /** @return a builder, by default in {@link Mode#CALLING_THREAD} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a system on real threads (a fork-join dispatcher of 2) and a real clock */
    public static TbTestActorSystem threads() {
        return builder().mode(Mode.THREADS).build();
    }

    /** @return a system whose turns run on the calling thread, with a manual clock */
    public static TbTestActorSystem callingThread() {
        return builder().build();
    }

    /** @return a system whose turns wait until the test runs them, with a manual clock */
    public static TbTestActorSystem manual() {
        return builder().mode(Mode.MANUAL).build();
    }

    /** @return the mode */
    public Mode mode() {
        return mode;
    }

    /** @return the actor system */
    public DefaultTbActorSystem system() {
        return system;
    }

    /**
     * @return the manual clock
     * @throws IllegalStateException in {@link Mode#THREADS}, which runs on the real clock
     */
    public ManualScheduler scheduler() {
        if (scheduler == null) {
            throw new IllegalStateException("A " + mode + " test system runs on the real clock; build it in CALLING_THREAD or "
                    + "MANUAL mode for a manual one");
        }
        return scheduler;
    }

    /**
     * @return the manual dispatcher
     * @throws IllegalStateException unless in {@link Mode#MANUAL}
     */
    public ManualDispatcher dispatcher() {
        if (dispatcher == null) {
            throw new IllegalStateException("A " + mode + " test system runs its turns by itself; build it in MANUAL mode to "
                    + "step them");
        }
        return dispatcher;
    }

    /**
     * @param creator makes the actor
     * @return the new root actor, on the {@value #DEFAULT_DISPATCHER} dispatcher
     */
    public TbActorRef createRootActor(TbActorCreator creator) {
        return system.createRootActor(DEFAULT_DISPATCHER, creator);
    }

    /**
     * @param creator makes the actor
     * @param parent the parent's id
     * @return the new child actor, on the {@value #DEFAULT_DISPATCHER} dispatcher
     */
    public TbActorRef createChildActor(TbActorCreator creator, TbActorId parent) {
        return system.createChildActor(DEFAULT_DISPATCHER, creator, parent);
    }

    /** @return makes probes in this system; registered ones run on the {@value #DEFAULT_DISPATCHER} dispatcher */
    public TbActorProbes probes() {
        return probes;
    }

    /**
     * Moves the manual clock forward, stopping at each due timer to run it and then every turn it caused (in
     * {@link Mode#MANUAL}), so that timers, retries, backoff and the work they start all happen within the step.
     *
     * @param step how far to move the clock
     * @return how many timers ran
     */
    public int advance(Duration step) {
        ManualScheduler clock = scheduler();
        long remaining = step.toNanos();
        int ran = 0;
        runUntilIdle();
        while (true) {
            Duration next = clock.nextDueIn();
            if (next == null || next.toNanos() > remaining) {
                ran += clock.advance(Duration.ofNanos(remaining));
                runUntilIdle();
                return ran;
            }
            ran += clock.advance(next);
            remaining -= next.toNanos();
            runUntilIdle();
        }
    }

    /** Runs the queued turns until none is left in {@link Mode#MANUAL}; does nothing in the other modes. */
    public void runUntilIdle() {
        if (dispatcher != null) {
            dispatcher.runUntilIdle();
        }
    }

    /** @return the dead letters so far: messages to unknown or stopped actors, or refused or dropped by full mailboxes */
    public List<DeadLetter> deadLetters() {
        synchronized (deadLetters) {
            return List.copyOf(deadLetters);
        }
    }

    /**
     * @return messages told to an actor and not yet processed, told why not, handed back by {@code tryTell} or
     *     withdrawn; while the system runs they may be waiting their turn, after {@link #stop()} they were lost (and
     *     {@link TbActorSystemExtension} fails the test)
     */
    public List<LostMessage> unsettledMessages() {
        return ledger.unsettled();
    }

    /** @return the ledger of tells and fates, for the testkit's own tests, which stand in for a runtime that loses one */
    MessageLedger ledger() {
        return ledger;
    }

    /** @return fates the runtime reported with no tell to match (a message processed or told twice) */
    List<String> messagesSettledTwice() {
        return ledger.settledTwice();
    }

    /**
     * @return the failures of actors' {@code init} and {@code process} so far, with their exceptions; the
     *     {@link TbActorSystemExtension} fails a test for each one it did not declare
     */
    public List<RecordedFailure> failures() {
        return failures.failures();
    }

    /**
     * Declares that actors of this test fail with this exception on purpose (Pekko's {@code EventFilter}): such
     * failures do not fail the test, and {@link TbActorSystemExtension} fails it if none happened.
     *
     * @param type the exception's type (subtypes match too)
     */
    public void expectFailure(Class<? extends Throwable> type) {
        expectedFailures.add(Objects.requireNonNull(type, "type must not be null"));
    }

    /** Tells {@link TbActorSystemExtension} that any failure of actors in this test is fine. */
    public void allowFailures() {
        failuresAllowed = true;
    }

    /** @return the failures neither declared by {@link #expectFailure} nor allowed by {@link #allowFailures()} */
    public List<RecordedFailure> undeclaredFailures() {
        if (failuresAllowed) {
            return List.of();
        }
        return failures().stream().filter(f -> expectedFailures.stream().noneMatch(type -> type.isInstance(f.cause()))).toList();
    }

    /** @return the types declared by {@link #expectFailure} that no failure had */
    public List<Class<? extends Throwable>> expectedFailuresThatNeverHappened() {
        List<RecordedFailure> seen = failures();
        return expectedFailures.stream().filter(type -> seen.stream().noneMatch(f -> type.isInstance(f.cause()))).toList();
    }

    /** Tells {@link TbActorSystemExtension} that this test produces dead letters on purpose. */
    public void allowDeadLetters() {
        deadLettersAllowed = true;
    }

    /** @return whether {@link #allowDeadLetters()} was called */
    public boolean deadLettersAllowed() {
        return deadLettersAllowed;
    }

    /**
     * Stops the system: every actor is destroyed and every undelivered message told {@code STOPPED}. In
     * {@link Mode#MANUAL} the destroy turns are run here while the stop waits for them.
     *
     * @return whether everything ended within the shutdown timeout
     */
    public boolean stop() {
        if (dispatcher == null) {
            return system.stop(system.getSettings().getShutdownTimeout());
        }
        CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(
                () -> system.stop(system.getSettings().getShutdownTimeout()), runnable -> {
                    Thread stopper = new Thread(runnable, "tb-testkit-stop");
                    stopper.setDaemon(true);
                    stopper.start();
                });
        while (true) {
            dispatcher.runUntilIdle();
            try {
                return stopped.get(1, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // the stop still waits for destroy turns that are queued now or soon: run them
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException e) {
                throw new IllegalStateException("Stopping the test actor system failed", e.getCause());
            }
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** Builds a {@link TbTestActorSystem}. */
    public static final class Builder {
        private Mode mode = Mode.CALLING_THREAD;
        private int threads = 2;
        private Consumer<TbActorSystemSettings.Builder> settings = builder -> { };
        private TbActorSystemListener listener = TbActorSystemListener.NOOP;
        private final List<String> dispatchers = new ArrayList<>();

        private Builder() {
        }

        /** @param value how turns and timers run @return this */
        public Builder mode(Mode value) {
            this.mode = Objects.requireNonNull(value, "mode must not be null");
            return this;
        }

        /** @param value fork-join threads in {@link Mode#THREADS}, at least 1 (default 2) @return this */
        public Builder threads(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + value);
            }
            this.threads = value;
            return this;
        }

        /**
         * @param value adjusts the settings (init attempts, restart budget, passivation tick...); the scheduler of the
         *     manual modes and a 5 s shutdown timeout are set before it runs
         * @return this
         */
        public Builder settings(Consumer<TbActorSystemSettings.Builder> value) {
            this.settings = Objects.requireNonNull(value, "settings must not be null");
            return this;
        }

        /**
         * Registers more dispatchers under the names the application's actors use (say {@code "counters"} for
         * {@code getOrCreateChildActor(id, () -> "counters", ...)}), of the same kind as the default one: in
         * the manual modes they share its queue, so the test steps every actor alike.
         *
         * @param names dispatcher names, not blank, not {@value TbTestActorSystem#DEFAULT_DISPATCHER}, each once
         * @return this
         */
        public Builder dispatchers(String... names) {
            for (String name : names) {
                if (name == null || name.isBlank()) {
                    throw new IllegalArgumentException("Dispatcher names must not be null or blank, got " + Arrays.toString(names));
                }
                if (name.equals(DEFAULT_DISPATCHER) || dispatchers.contains(name)) {
                    throw new IllegalArgumentException("Dispatcher '" + name + "' is named twice: '" + DEFAULT_DISPATCHER
                            + "' always exists, and each other name may be given once");
                }
                dispatchers.add(name);
            }
            return this;
        }

        /** @param value receives the runtime's events @return this */
        public Builder listener(TbActorSystemListener value) {
            this.listener = Objects.requireNonNull(value, "listener must not be null");
            return this;
        }

        /** @return the test system, started */
        public TbTestActorSystem build() {
            return new TbTestActorSystem(this);
        }
    }
}
