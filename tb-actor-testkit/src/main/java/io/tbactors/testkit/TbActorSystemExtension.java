package io.tbactors.testkit;

import io.tbactors.api.TbActorSystem;
import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.observe.DeadLetter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a fresh {@link TbTestActorSystem} and, after the test, stops it and fails the test when
 *
 * <ul>
 *   <li>an actor's {@code init} or {@code process} threw and the test did not declare it
 *       ({@link TbTestActorSystem#expectFailure}, {@link TbTestActorSystem#allowFailures()}); the first such exception
 *       is the cause of the failure, and a declared failure that never happened fails the test too;</li>
 *   <li>a message reached no actor (a dead letter; call {@link TbTestActorSystem#allowDeadLetters()} when the test
 *       means to produce them);</li>
 *   <li>a message was lost: told to an actor but, once the system stopped, neither processed nor reported back to its
 *       sender ({@code onTbActorStopped}, {@code false} from {@code tryTell}), or given two fates
 *       ({@link TbTestActorSystem#unsettledMessages()});</li>
 *   <li>the stop did not destroy every actor within the shutdown timeout;</li>
 *   <li>a thread started during the test is still alive a moment after the stop (the common fork-join pool's workers
 *       excepted), which is how a forgotten executor or a stuck actor shows.</li>
 * </ul>
 *
 * <p>Use it with {@code @ExtendWith(TbActorSystemExtension.class)} (calling-thread mode) or register one with
 * {@code @RegisterExtension}, for example {@code TbActorSystemExtension.withThreads()}, and declare a parameter of type
 * {@link TbTestActorSystem}, {@link DefaultTbActorSystem}, {@link TbActorSystem}, {@link ManualScheduler} or
 * {@link ManualDispatcher}. The thread check assumes the test class's tests do not run in parallel with others.
 */
public final class TbActorSystemExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TbActorSystemExtension.class);
    private static final String SYSTEM = "system";
    private static final String THREADS = "threads";
    private static final Duration DEFAULT_THREAD_GRACE = Duration.ofSeconds(5);

    private final Supplier<TbTestActorSystem> factory;
    private final Duration threadGrace;
    private final Predicate<Thread> ignoredThreads;

    /** Calling-thread mode: what {@code @ExtendWith(TbActorSystemExtension.class)} uses. */
    public TbActorSystemExtension() {
        this(TbTestActorSystem::callingThread, DEFAULT_THREAD_GRACE, thread -> false);
    }

    private TbActorSystemExtension(Supplier<TbTestActorSystem> factory, Duration threadGrace, Predicate<Thread> ignoredThreads) {
        this.factory = Objects.requireNonNull(factory, "factory must not be null");
        this.threadGrace = Objects.requireNonNull(threadGrace, "threadGrace must not be null");
        this.ignoredThreads = Objects.requireNonNull(ignoredThreads, "ignoredThreads must not be null");
    }

    /** @return an extension whose systems run on real threads */
    public static TbActorSystemExtension withThreads() {
        return using(TbTestActorSystem::threads);
    }

    /** @return an extension whose systems queue turns until the test runs them */
    public static TbActorSystemExtension manual() {
        return using(TbTestActorSystem::manual);
    }

    /**
     * @param factory makes the system of each test, such as {@code () -> TbTestActorSystem.builder()...build()}
     * @return an extension using it
     */
    public static TbActorSystemExtension using(Supplier<TbTestActorSystem> factory) {
        return new TbActorSystemExtension(factory, DEFAULT_THREAD_GRACE, thread -> false);
    }

    /**
     * @param grace how long threads started by a test may take to end after the stop (default 5 s)
     * @return a copy with that grace
     */
    public TbActorSystemExtension threadGrace(Duration grace) {
        return new TbActorSystemExtension(factory, grace, ignoredThreads);
    }

    /**
     * @param ignored threads the test may leave running (its own long-lived helpers, say)
     * @return a copy that does not report them
     */
    public TbActorSystemExtension ignoreThreads(Predicate<Thread> ignored) {
        return new TbActorSystemExtension(factory, threadGrace, ignoredThreads.or(ignored));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        store.put(THREADS, Set.copyOf(Thread.getAllStackTraces().keySet()));
        store.put(SYSTEM, factory.get());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        TbTestActorSystem kit = store.remove(SYSTEM, TbTestActorSystem.class);
        @SuppressWarnings("unchecked")
        Set<Thread> before = store.remove(THREADS, Set.class);
        if (kit == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        if (!kit.stop()) {
            problems.add("the actor system did not destroy every actor within its shutdown timeout "
                    + kit.system().getSettings().getShutdownTimeout());
        }
        List<LostMessage> lost = kit.unsettledMessages();
        if (!lost.isEmpty()) {
            problems.add(lost.stream().mapToInt(LostMessage::tells).sum() + " message(s) were lost: told to an actor but "
                    + "neither processed nor reported back to the sender (onTbActorStopped, false from tryTell): "
                    + lost.stream().limit(10).toList());
        }
        List<String> twice = kit.messagesSettledTwice();
        if (!twice.isEmpty()) {
            problems.add(twice.size() + " message fate(s) matched no tell (processed or told twice): "
                    + twice.stream().limit(10).toList());
        }
        List<DeadLetter> deadLetters = kit.deadLetters();
        if (!deadLetters.isEmpty() && !kit.deadLettersAllowed()) {
            problems.add(deadLetters.size() + " message(s) reached no actor (call allowDeadLetters() if the test means that): "
                    + deadLetters.stream().limit(10).map(TbActorSystemExtension::describe).toList());
        }
        List<RecordedFailure> undeclared = kit.undeclaredFailures();
        Throwable firstCause = undeclared.isEmpty() ? null : undeclared.get(0).cause();
        if (!undeclared.isEmpty()) {
            problems.add(undeclared.size() + " failure(s) of actors the test did not declare (expectFailure(type) or "
                    + "allowFailures() if the test means them): " + undeclared.stream().limit(10).toList());
        }
        List<Class<? extends Throwable>> missing = kit.expectedFailuresThatNeverHappened();
        if (!missing.isEmpty()) {
            problems.add("failure(s) declared by expectFailure never happened: " + missing.stream().map(Class::getName).toList());
        }
        List<String> threads = leftoverThreads(before == null ? Set.of() : before);
        if (!threads.isEmpty()) {
            problems.add("thread(s) started during the test are still alive " + threadGrace + " after the stop: " + threads);
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("The test's actor system was left in a bad state:\n - " + String.join("\n - ", problems),
                    firstCause);
        }
    }

    private List<String> leftoverThreads(Set<Thread> before) {
        long deadline = System.nanoTime() + threadGrace.toNanos();
        while (true) {
            List<String> alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> !before.contains(thread) && thread.isAlive() && !isIgnored(thread))
                    .map(Thread::getName).sorted().toList();
            if (alive.isEmpty() || System.nanoTime() - deadline >= 0) {
                return alive;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private boolean isIgnored(Thread thread) {
        return thread.getName().startsWith("ForkJoinPool.commonPool-") || thread == Thread.currentThread()
                || ignoredThreads.test(thread);
    }

    private static String describe(DeadLetter letter) {
        return letter.message().getClass().getSimpleName() + " to " + letter.target() + " (" + letter.reason() + ")";
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        return type == TbTestActorSystem.class || type == DefaultTbActorSystem.class || type == TbActorSystem.class
                || type == ManualScheduler.class || type == ManualDispatcher.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        TbTestActorSystem kit = extensionContext.getStore(NAMESPACE).get(SYSTEM, TbTestActorSystem.class);
        if (kit == null) {
            throw new IllegalStateException("No test actor system: parameters of type " + TbTestActorSystem.class.getSimpleName()
                    + " are resolved for test methods only, not for constructors or @BeforeAll methods");
        }
        Class<?> type = parameterContext.getParameter().getType();
        if (type == ManualScheduler.class) {
            return kit.scheduler();
        }
        if (type == ManualDispatcher.class) {
            return kit.dispatcher();
        }
        return type == TbTestActorSystem.class ? kit : kit.system();
    }
}
