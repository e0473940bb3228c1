package io.tbactors.core;

import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorStoppedException;
import io.tbactors.api.TbActorSystem;
import io.tbactors.api.TbMailboxBound;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.dispatch.DispatcherKind;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DeadLetterListener;
import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.core.observe.TbActorSystemListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The actor system: a registry of actors by id, named dispatchers that run them, and a scheduler.
 *
 * <p>This class is the public face; each concern lives in a file of its name: {@link ActorRegistry} (creation, one
 * creator call per live id, telling by id), {@link DispatcherRegistry}, {@link Asks}, {@link DeadLetters},
 * {@link SystemShutdown}, {@link SystemViews}, and {@link ActorRuntime}, the narrow view mailboxes have of all this.
 */
public class DefaultTbActorSystem implements TbActorSystem, TbActorSystemIntrospection {

    private final ActorRuntime runtime;
    private final Asks asks;
    private final SystemShutdown shutdown;
    private final SystemViews views;

    /** @param settings the settings */
    public DefaultTbActorSystem(TbActorSystemSettings settings) {
        this(settings, TbActorSystemListener.NOOP);
    }

    /**
     * @param listener receives the runtime's events (for metrics); {@link TbActorSystemListener#NOOP} for none
     */
    public DefaultTbActorSystem(TbActorSystemSettings settings, TbActorSystemListener listener) {
        Objects.requireNonNull(settings, "settings must not be null");
        Objects.requireNonNull(listener, "listener must not be null; use TbActorSystemListener.NOOP for none");
        this.runtime = new ActorRuntime(settings, listener);
        this.asks = new Asks(runtime);
        this.shutdown = new SystemShutdown(runtime);
        this.views = new SystemViews(runtime);
    }

    /** @return the settings this system runs with */
    public TbActorSystemSettings getSettings() {
        return runtime.settings;
    }

    @Override
    public ScheduledExecutorService getScheduler() {
        return runtime.scheduler;
    }

    // ---------------------------------------------------------------- dispatchers

    @Override
    public void createDispatcher(String dispatcherId, ExecutorService executor) {
        runtime.dispatchers.create(dispatcherId, executor);
    }

    /**
     * Creates and registers a dispatcher of a standard kind.
     *
     * @param dispatcherId the new dispatcher's name
     * @param kind fork-join, single or virtual
     * @param poolSize threads for fork-join (at least 1); ignored by the other kinds
     * @return the dispatcher
     */
    public Dispatcher createDispatcher(String dispatcherId, DispatcherKind kind, int poolSize) {
        return runtime.dispatchers.create(dispatcherId, kind, poolSize);
    }

    /**
     * Bounds the normal-priority mailboxes of actors created on a dispatcher from now on (an actor's creator may
     * still choose its own bound).
     *
     * @param dispatcherId the dispatcher
     * @param bound the bound, or null for unbounded
     */
    public void setMailboxBound(String dispatcherId, TbMailboxBound bound) {
        runtime.dispatchers.setMailboxBound(dispatcherId, bound);
    }

    /**
     * Gives the actors created on a dispatcher from now on the padded mailbox, or the compact one again. The padded
     * mailbox keeps the two ends of its queue, which senders and the turn write for every message, on cache lines of
     * their own; it costs about 200 bytes more per actor. Use it for a dispatcher of a few actors that each take many
     * messages from other threads (a gateway, a tenant, a rule chain); keep the compact default where actors are many
     * or mostly idle. Actors already created keep their mailbox. See the README's "Mailbox layout".
     *
     * @param dispatcherId the dispatcher
     * @param padded true for padded mailboxes, false for the compact default
     * @throws IllegalArgumentException when no dispatcher of that name is registered
     */
    public void setPaddedMailboxes(String dispatcherId, boolean padded) {
        runtime.dispatchers.setPaddedMailboxes(dispatcherId, padded);
    }

    /**
     * Stops the dispatcher's actors (each is destroyed once and its undelivered messages are told {@code STOPPED}),
     * then shuts its executor down, within the {@link TbActorSystemSettings#getShutdownTimeout() shutdown timeout}.
     * Turns already queued still run, so no actor is left holding a turn that will never come.
     */
    @Override
    public void destroyDispatcher(String dispatcherId) {
        runtime.dispatchers.destroy(dispatcherId);
    }

    /**
     * @param dispatcherId a name
     * @return the dispatcher with that name, if registered
     */
    public Optional<Dispatcher> getDispatcher(String dispatcherId) {
        return Optional.ofNullable(runtime.dispatchers.get(dispatcherId));
    }

    // ---------------------------------------------------------------- actors

    @Override
    public TbActorRef getActor(TbActorId actorId) {
        return runtime.actors.get(actorId);
    }

    @Override
    public TbActorRef createRootActor(String dispatcherId, TbActorCreator creator) {
        return runtime.actors.create(dispatcherId, creator, null);
    }

    /** A null {@code parent} creates a root actor, as ThingsBoard's runtime does. */
    @Override
    public TbActorRef createChildActor(String dispatcherId, TbActorCreator creator, TbActorId parent) {
        return runtime.actors.create(dispatcherId, creator, parent);
    }

    @Override
    public void tell(TbActorId target, TbActorMsg actorMsg) {
        runtime.actors.tell(target, actorMsg, false);
    }

    @Override
    public void tellWithHighPriority(TbActorId target, TbActorMsg actorMsg) {
        runtime.actors.tell(target, actorMsg, true);
    }

    @Override
    public void stop(TbActorRef actorRef) {
        stop(Objects.requireNonNull(actorRef, "actorRef must not be null").getActorId());
    }

    @Override
    public void stop(TbActorId actorId) {
        runtime.actors.stop(actorId);
    }

    /**
     * Subscribes to dead letters.
     *
     * @param deadLetterListener called for each message that reached no actor
     */
    public void addDeadLetterListener(DeadLetterListener deadLetterListener) {
        runtime.deadLetters.subscribe(deadLetterListener);
    }

    /** @param deadLetterListener a listener added before; it gets no more letters */
    public void removeDeadLetterListener(DeadLetterListener deadLetterListener) {
        runtime.deadLetters.unsubscribe(deadLetterListener);
    }

    // ---------------------------------------------------------------- request/reply

    /**
     * Sends a request and returns its reply. The request is built by {@code request} from a reply-to reference; the
     * actor answers by telling that reference. The future completes with the first reply, or exceptionally with a
     * {@link TimeoutException} after {@code timeout} (measured by the system's scheduler), with a
     * {@link TbActorStoppedException} when the target stops or refuses the request, or with a
     * {@link TbActorNotRegisteredException} when no actor has the id. Nothing stays registered once it completes.
     *
     * @param target the actor to ask
     * @param request builds the request message around the reply-to reference
     * @param timeout how long to wait for the reply; positive
     * @param <R> the reply's type
     * @return the reply
     */
    public <R extends TbActorMsg> CompletableFuture<R> ask(TbActorId target, Function<TbActorRef, ? extends TbActorMsg> request,
                                                           Duration timeout) {
        return asks.ask(target, request, timeout);
    }

    /**
     * Watches an actor until it stops, as a test or a supervisor of one's own needs (Pekko's {@code watch}).
     *
     * @param actorId the actor to watch
     * @return completed with the reason once the actor is destroyed, or its init gave up ({@code INIT_FAILED}: it stays
     *     registered, refusing messages); completed exceptionally with {@link TbActorNotRegisteredException} when no
     *     actor has the id (never created, or already stopped)
     */
    public CompletableFuture<TbActorStopReason> whenStopped(TbActorId actorId) {
        CompletableFuture<TbActorStopReason> stopped = new CompletableFuture<>();
        TbActorMailbox mailbox = runtime.actors.get(actorId);
        if (mailbox == null) {
            stopped.completeExceptionally(new TbActorNotRegisteredException(actorId, "Actor with id [" + actorId
                    + "] is not registered: never created, or already stopped"));
        } else if (!ActorTimers.addStopWatcher(mailbox, (target, reason) -> stopped.complete(reason))) {
            stopped.complete(mailbox.currentStopReason());
        }
        return stopped;
    }

    // ---------------------------------------------------------------- broadcast

    @Override
    public void broadcastToChildren(TbActorId parent, TbActorMsg msg) {
        broadcastToChildren(parent, msg, false);
    }

    @Override
    public void broadcastToChildren(TbActorId parent, TbActorMsg msg, boolean highPriority) {
        ActorChildren.broadcast(runtime, parent, id -> true, msg, highPriority);
    }

    @Override
    public void broadcastToChildren(TbActorId parent, Predicate<TbActorId> childFilter, TbActorMsg msg) {
        ActorChildren.broadcast(runtime, parent, Objects.requireNonNull(childFilter, "childFilter must not be null"), msg, false);
    }

    @Override
    public List<TbActorId> filterChildren(TbActorId parentId, Predicate<TbActorId> childFilter) {
        return ActorChildren.filter(runtime, parentId, childFilter);
    }

    // ---------------------------------------------------------------- stopping the system

    /** @return whether the system accepts new actors and messages */
    public boolean isRunning() {
        return runtime.isRunning();
    }

    /**
     * Waits until every mailbox is empty and no actor is running a turn, or the timeout passes. Messages keep
     * flowing meanwhile: this is how a graceful shutdown lets work in flight finish before {@link #stop()}.
     *
     * @param timeout the longest wait
     * @return whether the system became quiet in time
     */
    public boolean awaitQuiescence(Duration timeout) {
        return shutdown.awaitQuiescence(timeout);
    }

    /** Stops the system within the configured {@link TbActorSystemSettings#getShutdownTimeout() shutdown timeout}. */
    @Override
    public void stop() {
        stop(runtime.settings.getShutdownTimeout());
    }

    /**
     * Stops every actor (each is destroyed once, on its dispatcher, and its undelivered messages are told
     * {@code STOPPED}), then the dispatchers and the scheduler. Messages told afterwards are told {@code STOPPED}
     * at once. Returns within about {@code timeout}. An actor whose turn is still running by then is reported (WARN,
     * and {@link #getTurnsRunningAtStop()}) by id with its count of waiting messages; nothing is taken from under
     * that turn: its messages are told when it returns, and an ask to it completes by its own timeout.
     *
     * @param timeout the longest wait
     * @return whether everything ended in time
     */
    public boolean stop(Duration timeout) {
        return shutdown.stop(timeout);
    }

    /**
     * @return the actors whose turn was still running when the last {@link #stop(Duration)} gave up waiting, each with
     *     its count of messages waiting then (told when that turn returns); empty when none, or before a stop
     */
    public Map<TbActorId, Integer> getTurnsRunningAtStop() {
        return shutdown.turnsRunningAtStop();
    }

    // ---------------------------------------------------------------- observability

    /** @return number of live actors (created and not yet destroyed) */
    public int getActorCount() {
        return runtime.actors.liveCount();
    }

    /** @return messages told after the system stopped (each was told {@code STOPPED}) */
    public long getToldAfterStopCount() {
        return runtime.deadLetters.toldAfterStopCount();
    }

    /** @return dead letters so far: messages to unknown or stopped actors, refused or dropped by full mailboxes */
    public long getDeadLetterCount() {
        return runtime.deadLetters.deadLetterCount();
    }

    /** @return {@code process} calls that took longer than the slow-processing threshold */
    public long getSlowProcessingCount() {
        return runtime.slowProcessingCount();
    }

    /** @return actors restarted after a failure */
    public long getRestartCount() {
        return runtime.restartCount();
    }

    /** @return {@code tryTell} calls refused by a full mailbox */
    public long getTryTellRefusedCount() {
        return runtime.tryTellRefusedCount();
    }

    /** @return actors stopped for being idle */
    public long getPassivatedCount() {
        return runtime.passivatedCount();
    }

    /**
     * @return failures of user code and plug-ins that the runtime contained (listeners, context propagators,
     *         dead-letter listeners, {@code onTbActorStopped}, {@code destroy}, failure-strategy decisions)
     */
    public long getCallbackFailureCount() {
        return runtime.callbackFailureCount();
    }

    @Override
    public long getActorFailureCount() {
        return runtime.failures.count();
    }

    @Override
    public List<ActorFailure> getRecentFailures() {
        return runtime.failures.recent();
    }

    @Override
    public Map<TbActorStopReason, Long> getStopCountsByReason() {
        return runtime.actors.destroyedByReason();
    }

    /** @return messages that were not processed and were told why */
    public long getNotProcessedCount() {
        return runtime.deadLetters.notProcessedCount();
    }

    /** @return one view per dispatcher, sorted by name */
    public List<DispatcherStats> getDispatcherStats() {
        return views.dispatcherStats();
    }

    /**
     * @param actorId an id
     * @return the actor's view, if registered
     */
    public Optional<ActorStats> getActorStats(TbActorId actorId) {
        return views.actorStats(actorId);
    }

    /**
     * Finds an actor by the string form of its id, for tools that only have text (an HTTP path, say).
     *
     * @param id the id's {@code toString()}
     * @return the actor's view, if one is registered
     */
    public Optional<ActorStats> findActorStats(String id) {
        return views.findActorStats(id);
    }

    /**
     * @param limit how many to return
     * @return the actors with the most waiting messages, largest first
     */
    public List<ActorStats> getLargestMailboxes(int limit) {
        return views.largestMailboxes(limit);
    }

    /** @return live actors counted by dispatcher, then by actor type */
    public Map<String, Map<String, Integer>> getActorCountsByDispatcherAndType() {
        return views.actorCountsByDispatcherAndType();
    }

    /** @return total messages waiting in all mailboxes */
    public long getPendingMessages() {
        return views.pendingMessages();
    }
}
