package io.tbactors.testkit;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorSystem;
import io.tbactors.api.TbStringActorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
    private final LinkedBlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final @Nullable TbActorSystem system;

    private TbActorProbe(TbActorId id, @Nullable TbActorSystem system) {
        this.id = Objects.requireNonNull(id, "id must not be null");
        this.system = system;
    }

    /**
     * @param name the probe's id, as a string id
     * @return a probe that is not registered in any system: a reference that records what it is told, at once
     */
    public static TbActorProbe create(String name) {
        return new TbActorProbe(new TbStringActorId(name), null);
    }

    /**
     * Registers a probe as a root actor: actors may then find it by id, tell it through the system, or be created as
     * its children (their {@code ctx.getParentRef()} is the probe).
     *
     * @param system the system
     * @param dispatcher the dispatcher its mailbox runs on
     * @param id its id
     * @return the probe; what it is told goes through its mailbox, in the runtime's order
     */
    public static TbActorProbe spawn(TbActorSystem system, String dispatcher, TbActorId id) {
        TbActorProbe probe = new TbActorProbe(id, system);
        system.createRootActor(dispatcher, probe.creator());
        return probe;
    }

    /**
     * Registers a probe as the child of an actor, for example under the id that actor will ask for with
     * {@code getOrCreateChildActor}: the actor then finds the probe instead of creating the real child.
     *
     * @param system the system
     * @param dispatcher the dispatcher its mailbox runs on
     * @param id its id
     * @param parent the parent's id; it must be registered
     * @return the probe
     */
    public static TbActorProbe spawnChild(TbActorSystem system, String dispatcher, TbActorId id, TbActorId parent) {
        TbActorProbe probe = new TbActorProbe(id, system);
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
        Received next = poll(timeout);
        if (next == null) {
            throw new AssertionError("Probe " + id + ": expected a " + type.getName() + " within " + timeout + " but none arrived");
        }
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
     * Takes the next message with how it was told, waiting for it up to the timeout.
     *
     * @param timeout the longest wait
     * @return the message and its priority
     * @throws AssertionError when no message arrives in time
     */
    public Received expectReceived(Duration timeout) {
        Received next = poll(timeout);
        if (next == null) {
            throw new AssertionError("Probe " + id + ": expected a message within " + timeout + " but none arrived");
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
            return received.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
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
