package io.tbactors.core;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.DeadLetterReason;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The actors of a system by id: creation (one creator call per live id), lookup, telling by id, and the live count
 * that a system stop waits on.
 *
 * <p>Creating an actor puts a placeholder mailbox into the registry with {@code putIfAbsent} before the creator is
 * asked for the actor, so for one live id the creator runs at most once, whatever the concurrency and even when it
 * throws (then the placeholder is removed and whatever was told to it is told {@code INIT_FAILED}).
 */
final class ActorRegistry {

    private final ActorRuntime runtime;
    private final ConcurrentMap<TbActorId, TbActorMailbox> actors = new ConcurrentHashMap<>();
    private final AtomicInteger liveActors = new AtomicInteger();
    /** Actors whose stop was requested and that are not destroyed yet: no longer registered, still holding messages. */
    private final Set<TbActorMailbox> stopping = ConcurrentHashMap.newKeySet();
    private final Object stopMonitor = new Object();
    /** Actors destroyed so far, by the reason of their stop. */
    private final Map<TbActorStopReason, LongAdder> destroyedByReason = new EnumMap<>(TbActorStopReason.class);

    ActorRegistry(ActorRuntime runtime) {
        this.runtime = runtime;
        for (TbActorStopReason reason : TbActorStopReason.values()) {
            destroyedByReason.put(reason, new LongAdder());
        }
    }

    /** @return actors destroyed so far by the reason of their stop, reasons that never happened left out */
    Map<TbActorStopReason, Long> destroyedByReason() {
        Map<TbActorStopReason, Long> counts = new EnumMap<>(TbActorStopReason.class);
        destroyedByReason.forEach((reason, count) -> {
            long n = count.sum();
            if (n > 0) {
                counts.put(reason, n);
            }
        });
        return counts;
    }

    TbActorMailbox get(TbActorId actorId) {
        return actors.get(Objects.requireNonNull(actorId, "actorId must not be null"));
    }

    Collection<TbActorMailbox> all() {
        return actors.values();
    }

    /** @return the registered actors and those stopping but not destroyed yet, which a stop that gives up must drain */
    List<TbActorMailbox> allNotDestroyed() {
        List<TbActorMailbox> all = new ArrayList<>(actors.values());
        all.addAll(stopping);
        return all;
    }

    /** Records an actor whose stop is being requested; called before it can be destroyed. */
    void stopRequested(TbActorMailbox mailbox) {
        stopping.add(mailbox);
    }

    /** @return actors created and not yet destroyed */
    int liveCount() {
        return liveActors.get();
    }

    TbActorMailbox create(String dispatcherId, TbActorCreator creator, TbActorId parentId) {
        Objects.requireNonNull(creator, "creator must not be null");
        runtime.ensureRunning("create an actor");
        Dispatcher dispatcher = runtime.dispatchers.require(dispatcherId);
        TbActorMailbox parent = null;
        if (parentId != null) {
            parent = actors.get(parentId);
            if (parent == null || parent.isStopRequested()) {
                throw new TbActorNotRegisteredException(parentId, "Parent actor with id [" + parentId + "] is not registered");
            }
        }
        TbActorId actorId = Objects.requireNonNull(creator.createActorId(), "creator.createActorId() returned null");
        TbActorMailbox existing = actors.get(actorId);
        if (existing != null) {
            return existing;
        }
        TbMailboxBound bound = creator.getMailboxBound() != null ? creator.getMailboxBound() : dispatcher.getMailboxBound();
        TbActorMailbox mailbox = dispatcher.hasPaddedMailboxes()
                ? PaddedMailboxes.create(runtime, actorId, parent, dispatcher, bound)
                : new TbActorMailbox(runtime, actorId, parent, dispatcher, bound);
        existing = actors.putIfAbsent(actorId, mailbox);
        if (existing != null) {
            return existing;
        }
        liveActors.incrementAndGet();
        if (runtime.dispatchers.get(dispatcher.getName()) != dispatcher) {
            // destroyDispatcher removed it after our lookup: its snapshot of actors to stop may have missed this one.
            // Either this check sees the removal, or the removal comes after our registration and its snapshot sees us.
            IllegalArgumentException gone = new IllegalArgumentException("Dispatcher '" + dispatcher.getName()
                    + "' was destroyed while actor [" + actorId + "] was being created on it; registered: "
                    + runtime.dispatchers.names());
            unregister(mailbox);
            ActorStop.failCreation(mailbox, gone);
            throw gone;
        }
        // linked before the creator runs, so a stop of the placeholder (or of the parent) meanwhile unlinks it
        boolean parentStopping = parent != null && !ActorChildren.add(parent, mailbox);
        TbActor actor;
        try {
            actor = Objects.requireNonNull(creator.createActor(), "creator.createActor() returned null");
        } catch (Throwable t) {
            // any throwable, checked ones thrown sneakily included: the placeholder must not stay registered
            unregister(mailbox);
            ActorStop.failCreation(mailbox, t);
            throw sneaky(t);
        }
        mailbox.attachActor(actor, creator);
        dispatcher.actorAdded();
        if (runtime.listener != null) {
            runtime.listener.onActorCreated(dispatcher.getName(), mailbox.actorType());
        }
        if (parentStopping || !runtime.isRunning()) {
            ActorStop.stop(mailbox, TbActorStopReason.STOPPED, null);
        }
        mailbox.start();
        return mailbox;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** Tells by id: an unknown id is a dead letter and throws; after the system stop the message is told STOPPED. */
    void tell(TbActorId target, TbActorMsg actorMsg, boolean highPriority) {
        Objects.requireNonNull(target, "target must not be null");
        Objects.requireNonNull(actorMsg, "actor message must not be null");
        TbActorMailbox mailbox = actors.get(target);
        if (mailbox != null) {
            mailbox.enqueue(actorMsg, highPriority);
        } else if (!runtime.isRunning()) {
            runtime.deadLetters.notProcessed(target, actorMsg, TbActorStopReason.STOPPED);
        } else {
            runtime.deadLetters.publish(new DeadLetter(target, actorMsg, DeadLetterReason.NOT_REGISTERED));
            throw new TbActorNotRegisteredException(target, "Actor with id [" + target + "] is not registered!");
        }
    }

    void stop(TbActorId actorId) {
        TbActorMailbox mailbox = get(actorId);
        if (mailbox != null) {
            ActorStop.stop(mailbox, TbActorStopReason.STOPPED, null);
        }
    }

    /** Frees the id and unlinks the actor from its parent; called once a stop was requested. */
    void unregister(TbActorMailbox mailbox) {
        actors.remove(mailbox.getSelf(), mailbox);
        TbActorMailbox parent = mailbox.parent;
        if (parent != null) {
            ActorChildren.remove(parent, mailbox);
        }
    }

    void onDestroyed(TbActorMailbox mailbox, TbActorStopReason reason, boolean actorExisted) {
        stopping.remove(mailbox);
        destroyedByReason.get(reason).increment();
        if (actorExisted) {
            mailbox.dispatcher().actorRemoved();
            if (runtime.listener != null) {
                runtime.listener.onActorDestroyed(mailbox.dispatcher().getName(), mailbox.actorType(), reason);
            }
        }
        if (liveActors.decrementAndGet() == 0 && !runtime.isRunning()) {
            synchronized (stopMonitor) {
                stopMonitor.notifyAll();
            }
        }
    }

    /** @return whether every actor was destroyed by the deadline */
    boolean awaitNoLiveActors(long deadline) {
        synchronized (stopMonitor) {
            while (liveActors.get() > 0) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(stopMonitor, Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }
}
