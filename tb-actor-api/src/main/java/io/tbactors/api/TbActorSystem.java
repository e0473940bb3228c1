package io.tbactors.api;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;

/**
 * A set of actors, the dispatchers that run them and a scheduler for delayed work.
 */
public interface TbActorSystem {

    /** @return the scheduler for delayed and periodic work; tasks that throw are logged and periodic ones keep running */
    ScheduledExecutorService getScheduler();

    /**
     * Registers an executor under a name so actors can be created on it.
     *
     * @param dispatcherId the name; must be new
     * @param executor the executor that runs the actors' turns
     */
    void createDispatcher(String dispatcherId, ExecutorService executor);

    /**
     * Shuts a dispatcher down and forgets its name.
     *
     * @param dispatcherId the name
     */
    void destroyDispatcher(String dispatcherId);

    /**
     * @param actorId the id
     * @return the actor's reference, or null when no actor has that id
     */
    TbActorRef getActor(TbActorId actorId);

    /**
     * Creates a top-level actor, or returns the existing one with the creator's id.
     *
     * @param dispatcherId the dispatcher to run it on
     * @param creator makes the actor
     * @return the actor's reference
     */
    TbActorRef createRootActor(String dispatcherId, TbActorCreator creator);

    /**
     * Creates a child actor, or returns the existing one with the creator's id.
     *
     * @param dispatcherId the dispatcher to run it on
     * @param creator makes the actor
     * @param parent the parent's id; it must be registered; null creates a root actor, as in ThingsBoard
     * @return the actor's reference
     */
    TbActorRef createChildActor(String dispatcherId, TbActorCreator creator, TbActorId parent);

    /**
     * @param target the receiver
     * @param actorMsg the message, normal priority
     */
    void tell(TbActorId target, TbActorMsg actorMsg);

    /**
     * @param target the receiver
     * @param actorMsg the message, high priority
     */
    void tellWithHighPriority(TbActorId target, TbActorMsg actorMsg);

    /** @param actorRef the actor to stop, with its children */
    void stop(TbActorRef actorRef);

    /** @param actorId the actor to stop, with its children */
    void stop(TbActorId actorId);

    /** Stops every actor and dispatcher, telling every undelivered message why it was not processed. */
    void stop();

    /**
     * @param msg told with normal priority to each child of the parent
     */
    void broadcastToChildren(TbActorId parent, TbActorMsg msg);

    /**
     * @param msg told to each child of the parent
     * @param highPriority whether to tell it with high priority
     */
    void broadcastToChildren(TbActorId parent, TbActorMsg msg, boolean highPriority);

    /**
     * @param msg told to each child of the parent whose id has this entity type
     * @param entityType the entity type
     */
    default void broadcastToChildrenByType(TbActorId parent, TbActorMsg msg, String entityType) {
        Objects.requireNonNull(entityType, "entityType must not be null");
        broadcastToChildren(parent, id -> entityType.equals(id.getEntityType()), msg);
    }

    /**
     * @param childFilter selects the children
     * @param msg told to each selected child
     */
    void broadcastToChildren(TbActorId parent, Predicate<TbActorId> childFilter, TbActorMsg msg);

    /**
     * @param childFilter selects the children
     * @return the ids of the matching children, a snapshot
     */
    List<TbActorId> filterChildren(TbActorId parent, Predicate<TbActorId> childFilter);
}
