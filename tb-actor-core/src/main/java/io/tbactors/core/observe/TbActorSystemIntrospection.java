package io.tbactors.core.observe;

import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.dispatch.Dispatcher;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an actor system tells about itself: whether it runs, its dispatchers and actors, what waits in the mailboxes
 * and what became of messages that were never processed. Health indicators, management endpoints and metrics read a
 * system through this view only, so they work with any system that offers it, not just the default one.
 */
public interface TbActorSystemIntrospection {

    /** @return whether the system accepts new actors and messages */
    boolean isRunning();

    /**
     * Waits until every mailbox is empty and no actor is running a turn, or the timeout passes.
     *
     * @param timeout the longest wait
     * @return whether the system became quiet in time
     */
    boolean awaitQuiescence(Duration timeout);

    /** @return live actors (created and not yet destroyed) */
    int getActorCount();

    /** @return messages waiting in all mailboxes */
    long getPendingMessages();

    /** @return messages that were never processed; each was told why through {@code onTbActorStopped} */
    long getNotProcessedCount();

    /** @return messages told after the system began to stop; each was told {@code STOPPED} */
    long getToldAfterStopCount();

    /** @return messages to unknown or stopped actors, or refused or dropped by full mailboxes */
    long getDeadLetterCount();

    /** @return actors stopped after being idle for their idle timeout */
    long getPassivatedCount();

    /** @return failures of user callbacks and plug-ins that the runtime contained */
    long getCallbackFailureCount();

    /** @return failures of actors' {@code init} and {@code process} so far */
    default long getActorFailureCount() {
        return 0;
    }

    /** @return the last failures of actors' {@code init} and {@code process} (a few dozen at most), oldest first */
    default List<ActorFailure> getRecentFailures() {
        return List.of();
    }

    /** @return actors destroyed so far, by the reason of their stop (reasons that never happened left out) */
    default Map<TbActorStopReason, Long> getStopCountsByReason() {
        return Map.of();
    }

    /** @return a view of each dispatcher, sorted by name */
    List<DispatcherStats> getDispatcherStats();

    /**
     * @param dispatcherId a dispatcher's name
     * @return that dispatcher, or empty when there is none
     */
    Optional<Dispatcher> getDispatcher(String dispatcherId);

    /** @return live actors counted by dispatcher, then by actor type */
    Map<String, Map<String, Integer>> getActorCountsByDispatcherAndType();

    /**
     * @param limit how many actors to list
     * @return the actors with the most waiting messages, largest first
     */
    List<ActorStats> getLargestMailboxes(int limit);

    /**
     * @param id an actor id as printed by its {@code toString()}
     * @return that actor's state, or empty when no such actor lives
     */
    Optional<ActorStats> findActorStats(String id);

    /** @param deadLetterListener told of each dead letter from now on */
    void addDeadLetterListener(DeadLetterListener deadLetterListener);

    /** @param deadLetterListener no longer told of dead letters */
    void removeDeadLetterListener(DeadLetterListener deadLetterListener);
}
