package io.tbactors.testkit;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorSystem;
import io.tbactors.api.TbStringActorId;
import io.tbactors.core.DefaultTbActorSystem;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TbActorRef} that records what it is told, for a test to check: hand it to the actor under test wherever that
 * actor expects a reference (a reply-to, a subscriber), or register it in a system as an actor, so that it can be the
 * parent of the actor under test or the child that actor looks up.
 *
 * <pre>{@code
 * TbActorProbe replies = TbActorProbe.create("replies");
 * device.tell(new GetStatus(replies));
 * Status status = replies.expectMessage(Status.class, Duration.ofSeconds(1));
 * replies.expectNoMessage(Duration.ofMillis(100));
 * }</pre>
 *
 * <p>Messages are recorded in the order they arrive; high-priority ones are recorded like the others (see
 * {@link Received#highPriority()}). Every expectation fails with an {@link AssertionError} that says what arrived
 * instead.
 */
public final class TbActorProbe implements TbActorRef {

    private final TbActorId id;
    private final LinkedBlockingDeque<Received> received = new LinkedBlockingDeque<>();
    // where tells go through a mailbox: set for a registered probe only
    private final @Nullable TbActorSystem system;
    // the system actors are watched in (expectTerminated): the registered probe's, or the one whose probes made it
    private final @Nullable TbActorSystem watchedIn;
    private volatile @Nullable TbActorMsg lastTaken;

    private TbActorProbe(TbActorId id, @Nullable TbActorSystem system, @Nullable TbActorSystem watchedIn) {
        this.id = Objects.requireNonNull(id, "id must not be null");
        this.system = system;
        this.watchedIn = watchedIn;
    }

    /**
     * @param name the probe's id, as a string id
     * @return a probe that is not registered in any system: a reference that records what it is told, at once
     */
    public static TbActorProbe create(String name) {
        return new TbActorProbe(new TbStringActorId(name), null, null);
    }

    /** A probe that is not registered, but can watch the actors of {@code system} ({@link #expectTerminated}). */
    static TbActorProbe create(String name, TbActorSystem system) {
        return new TbActorProbe(new TbStringActorId(name), null, system);
    }

    /**
     * Registers a probe as a root actor: actors may then find it by id, tell it through the system, or be created as
     * its children (their {@code ctx.getParentRef()} is the probe).
     *
     * @param dispatcher the dispatcher its mailbox runs on
     * @param id its id
     * @return the probe; what it is told goes through its mailbox, in the runtime's order
     */
    public static TbActorProbe spawn(TbActorSystem system, String dispatcher, TbActorId id) {
        TbActorProbe probe = new TbActorProbe(id, system, system);
        system.createRootActor(dispatcher, probe.creator());
        return probe;
    }

    /**
     * Registers a probe as the child of an actor, for example under the id that actor will ask for with
     * {@code getOrCreateChildActor}: the actor then finds the probe instead of creating the real child.
     *
     * @param dispatcher the dispatcher its mailbox runs on
     * @param id its id
     * @param parent the parent's id; it must be registered
     * @return the probe
     */
    public static TbActorProbe spawnChild(TbActorSystem system, String dispatcher, TbActorId id, TbActorId parent) {
        TbActorProbe probe = new TbActorProbe(id, system, system);
        system.createChildActor(dispatcher, probe.creator(), Objects.requireNonNull(parent, "parent must not be null"));
        return probe;
    }

    private TbActorCreator creator() {
        return TbActorCreators.of(id, () -> new AbstractTbActor() {
            @Override
            public boolean process(TbActorMsg msg) {
                received.add(new Received(msg, false));
                return true;
            }
        });
    }

    @Override
    public TbActorId getActorId() {
        return id;
    }

    @Override
    public void tell(TbActorMsg actorMsg) {
        Objects.requireNonNull(actorMsg, "actorMsg must not be null");
        if (system != null) {
            system.tell(id, actorMsg);
        } else {
            received.add(new Received(actorMsg, false));
        }
    }

    @Override
    public void tellWithHighPriority(TbActorMsg actorMsg) {
        Objects.requireNonNull(actorMsg, "actorMsg must not be null");
        if (system != null) {
            system.tellWithHighPriority(id, actorMsg);
        } else {
            received.add(new Received(actorMsg, true));
        }
    }

    /**
     * Takes the next message, waiting for it up to the {@linkplain TbTestKitSettings#defaultTimeout() default timeout}.
     *
     * @param type the type the next message must have
     * @param <T> the type
     * @return the message
     * @throws AssertionError when no message arrives in time, or the next one has another type
     */
    public <T extends TbActorMsg> T expectMessage(Class<T> type) {
        return expectMessage(type, TbTestKitSettings.defaultTimeout());
    }

    /**
     * Takes the next message, which must equal {@code expected}, waiting up to the default timeout.
     *
     * @param expected the message expected (compared with {@code equals}: records compare by value)
     * @param <T> its type
     * @return the message that arrived
     * @throws AssertionError when no message arrives in time, or the next one is another
     */
    public <T extends TbActorMsg> TbActorMsg expectMessage(T expected) {
        return expectMessage(expected, TbTestKitSettings.defaultTimeout());
    }

    /**
     * Takes the next message, which must equal {@code expected}.
     *
     * @param expected the message expected (compared with {@code equals}: records compare by value)
     * @param timeout the longest wait
     * @param <T> its type
     * @return the message that arrived
     * @throws AssertionError when no message arrives in time, or the next one is another
     */
    public <T extends TbActorMsg> TbActorMsg expectMessage(T expected, Duration timeout) {
        Objects.requireNonNull(expected, "expected must not be null");
        TbActorMsg next = take(timeout, "a message equal to " + describe(expected)).msg();
        if (!expected.equals(next)) {
            throw new AssertionError("Probe " + id + ": expected " + describe(expected) + " but got " + describe(next));
        }
        return next;
    }

    /**
     * Takes the next message, which must have the type and satisfy the condition, waiting up to the default timeout.
     *
     * @param type the type the next message must have
     * @param condition what it must satisfy
     * @param <T> the type
     * @return the message
     * @throws AssertionError when no message arrives in time, or the next one has another type or fails the condition
     */
    public <T extends TbActorMsg> T expectMessage(Class<T> type, Predicate<? super T> condition) {
        return expectMessage(type, condition, TbTestKitSettings.defaultTimeout());
    }

    /**
     * Takes the next message, which must have the type and satisfy the condition.
     *
     * @param type the type the next message must have
     * @param condition what it must satisfy
     * @param timeout the longest wait
     * @param <T> the type
     * @return the message
     * @throws AssertionError when no message arrives in time, or the next one has another type or fails the condition
     */
    public <T extends TbActorMsg> T expectMessage(Class<T> type, Predicate<? super T> condition, Duration timeout) {
        Objects.requireNonNull(condition, "condition must not be null");
        T next = expectMessage(type, timeout);
        if (!condition.test(next)) {
            throw new AssertionError("Probe " + id + ": got " + describe(next) + ", which does not satisfy the condition");
        }
        return next;
    }

    /**
     * Skips messages until one satisfies the condition (Pekko's {@code fishForMessage}), waiting up to the default
     * timeout for it.
     *
     * @param condition what the message looked for satisfies
     * @return that message; the ones before it are dropped
     * @throws AssertionError naming the messages skipped when none satisfies it in time
     */
    public TbActorMsg fishForMessage(Predicate<? super TbActorMsg> condition) {
        return fishForMessage(condition, TbTestKitSettings.defaultTimeout());
    }

    /**
     * Skips messages until one satisfies the condition.
     *
     * @param condition what the message looked for satisfies
     * @param timeout the longest wait for it, in all
     * @return that message; the ones before it are dropped
     * @throws AssertionError naming the messages skipped when none satisfies it in time
     */
    public TbActorMsg fishForMessage(Predicate<? super TbActorMsg> condition, Duration timeout) {
        Objects.requireNonNull(condition, "condition must not be null");
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> skipped = new ArrayList<>();
        while (true) {
            Received next = poll(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (next == null) {
                throw new AssertionError("Probe " + id + ": no message satisfying the condition within " + timeout
                        + "; skipped " + skipped);
            }
            if (condition.test(next.msg())) {
                return next.msg();
            }
            skipped.add(describe(next.msg()));
        }
    }

    /**
     * Takes messages as long as they satisfy the condition (Pekko's {@code receiveWhile}): stops at the first one that
     * does not, which stays for the next expectation, or when no message comes within {@code idle}, or at {@code max}.
     *
     * @param max the longest time in all
     * @param idle the longest wait for each next message
     * @param condition what each message taken satisfies
     * @return the messages taken, in order (possibly none)
     */
    public List<TbActorMsg> receiveWhile(Duration max, Duration idle, Predicate<? super TbActorMsg> condition) {
        Objects.requireNonNull(condition, "condition must not be null");
        long deadline = System.nanoTime() + max.toNanos();
        List<TbActorMsg> taken = new ArrayList<>();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return taken;
            }
            Received next = poll(Duration.ofNanos(Math.min(left, idle.toNanos())));
            if (next == null) {
                return taken;
            }
            if (!condition.test(next.msg())) {
                received.addFirst(next);
                return taken;
            }
            taken.add(next.msg());
        }
    }

    /**
     * Checks that nothing arrives for the {@linkplain TbTestKitSettings#noMessageDuration() default quiet period}.
     *
     * @throws AssertionError naming the message that arrived
     */
    public void expectNoMessage() {
        expectNoMessage(TbTestKitSettings.noMessageDuration());
    }

    /**
     * Takes the next message, waiting for it up to the timeout.
     *
     * @param type the type the next message must have
     * @param timeout the longest wait
     * @param <T> the type
     * @return the message
     * @throws AssertionError when no message arrives in time, or the next one has another type
     */
    public <T extends TbActorMsg> T expectMessage(Class<T> type, Duration timeout) {
        Objects.requireNonNull(type, "type must not be null");
        Received next = take(timeout, "a " + type.getName());
        if (!type.isInstance(next.msg())) {
            throw new AssertionError("Probe " + id + ": expected a " + type.getName() + " but got " + describe(next.msg()));
        }
        return type.cast(next.msg());
    }

    /**
     * Checks that nothing arrives for the whole duration. This is the one expectation that has to wait its full time:
     * keep the duration short, and prefer {@link #expectMessage} followed by this with a short duration.
     *
     * @param duration how long nothing may arrive
     * @throws AssertionError naming the message that arrived
     */
    public void expectNoMessage(Duration duration) {
        Received next = poll(duration);
        if (next != null) {
            throw new AssertionError("Probe " + id + ": expected no message for " + duration + " but got " + describe(next.msg()));
        }
    }

    /**
     * Takes the next {@code n} messages, of any type, waiting up to the timeout for all of them.
     *
     * @param n how many, at least 1
     * @param timeout the longest wait for all of them
     * @return the messages in the order they arrived
     * @throws AssertionError naming the messages that did arrive when fewer than {@code n} arrive in time
     */
    public List<TbActorMsg> receiveN(int n, Duration timeout) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, got " + n);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TbActorMsg> messages = new ArrayList<>(n);
        while (messages.size() < n) {
            Received next = poll(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (next == null) {
                throw new AssertionError("Probe " + id + ": expected " + n + " messages within " + timeout + " but got "
                        + messages.size() + ": " + messages.stream().map(TbActorProbe::describe).toList());
            }
            messages.add(next.msg());
        }
        return messages;
    }

    /**
     * Takes the next {@code n} messages, waiting up to the default timeout for all of them.
     *
     * @param n how many, at least 1
     * @return the messages in the order they arrived
     * @throws AssertionError naming the messages that did arrive when fewer than {@code n} arrive in time
     */
    public List<TbActorMsg> receiveN(int n) {
        return receiveN(n, TbTestKitSettings.defaultTimeout());
    }

    /**
     * Waits until the actor stops (Pekko's {@code expectTerminated}): it is destroyed, or its init gives up. An actor
     * that is no longer registered when this is called counts as stopped.
     *
     * @param actor the actor watched
     * @return why it stopped, or null when it was gone before this call
     * @throws AssertionError when it is still running after the default timeout
     */
    public @Nullable TbActorStopReason expectTerminated(TbActorRef actor) {
        return expectTerminated(actor, TbTestKitSettings.defaultTimeout());
    }

    /**
     * Waits until the actor stops: it is destroyed, or its init gives up.
     *
     * @param actor the actor watched
     * @param timeout the longest wait
     * @return why it stopped, or null when it was gone before this call
     * @throws AssertionError when it is still running after the timeout
     * @throws IllegalStateException when this probe knows no actor system (made by {@link #create(String)})
     */
    public @Nullable TbActorStopReason expectTerminated(TbActorRef actor, Duration timeout) {
        Objects.requireNonNull(actor, "actor must not be null");
        if (!(watchedIn instanceof DefaultTbActorSystem watched)) {
            throw new IllegalStateException("Probe " + id + " knows no actor system to watch " + actor.getActorId() + " in: make "
                    + "it with TbTestActorSystem.probes() (create, spawn or spawnChild) instead of TbActorProbe.create(name)");
        }
        try {
            return watched.whenStopped(actor.getActorId()).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TbActorNotRegisteredException) {
                return null;
            }
            throw new AssertionError("Probe " + id + ": watching " + actor.getActorId() + " failed", e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("Probe " + id + ": expected " + actor.getActorId() + " to stop within " + timeout
                    + " but it still runs");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Probe " + id + ": interrupted while watching " + actor.getActorId(), e);
        }
    }

    /** @return the last message an expectation took, or null when none was taken yet */
    public @Nullable TbActorMsg lastMessage() {
        return lastTaken;
    }

    /**
     * Answers the last message an expectation took, through the reference it carries for its answer (a record
     * component or no-argument method returning a {@link TbActorRef}, such as an ask's {@code replyTo}): actors here
     * have no implicit sender, so the request names where the answer goes.
     *
     * @param answer what to tell
     * @throws IllegalStateException when no message was taken yet, or the last one carries no {@code TbActorRef}
     */
    public void reply(TbActorMsg answer) {
        Objects.requireNonNull(answer, "answer must not be null");
        TbActorMsg last = lastTaken;
        if (last == null) {
            throw new IllegalStateException("Probe " + id + ": no message taken yet, so nothing to reply to");
        }
        replyToOf(last).tell(answer);
    }

    private TbActorRef replyToOf(TbActorMsg msg) {
        for (Method method : msg.getClass().getMethods()) {
            if (method.getParameterCount() == 0 && TbActorRef.class.isAssignableFrom(method.getReturnType())
                    && !Modifier.isStatic(method.getModifiers())) {
                try {
                    Object ref = method.invoke(msg);
                    if (ref != null) {
                        return (TbActorRef) ref;
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("Probe " + id + ": could not read " + method.getName() + "() of "
                            + describe(msg), e);
                }
            }
        }
        throw new IllegalStateException("Probe " + id + ": the last message " + describe(msg) + " carries no TbActorRef to "
                + "reply to (a record component or a no-argument public method returning one)");
    }

    /**
     * Takes the next message with how it was told, waiting for it up to the timeout.
     *
     * @param timeout the longest wait
     * @return the message and its priority
     * @throws AssertionError when no message arrives in time
     */
    public Received expectReceived(Duration timeout) {
        return take(timeout, "a message");
    }

    /**
     * Takes the next message with how it was told, waiting up to the default timeout.
     *
     * @return the message and its priority
     * @throws AssertionError when no message arrives in time
     */
    public Received expectReceived() {
        return expectReceived(TbTestKitSettings.defaultTimeout());
    }

    private Received take(Duration timeout, String what) {
        Received next = poll(timeout);
        if (next == null) {
            throw new AssertionError("Probe " + id + ": expected " + what + " within " + timeout + " but none arrived");
        }
        return next;
    }

    /** @return messages received and not yet taken by an expectation */
    public int pendingCount() {
        return received.size();
    }

    private @Nullable Received poll(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
        try {
            Received next = received.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (next != null) {
                lastTaken = next.msg();
            }
            return next;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Probe " + id + ": interrupted while waiting for a message", e);
        }
    }

    private static String describe(TbActorMsg msg) {
        return msg.getClass().getName() + " (" + msg + ")";
    }

    @Override
    public String toString() {
        return "TbActorProbe[" + id + "]";
    }

    /**
     * A message as the probe received it.
     *
     * @param msg the message
     * @param highPriority whether it was told with high priority straight to an unregistered probe (a registered probe's
     *     mailbox orders by priority instead, and records {@code false})
     */
    public record Received(TbActorMsg msg, boolean highPriority) {
    }
}
