package io.tbactors.api;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What an actor sees of the system: itself, its parent, its children and the ability to tell other actors.
 * Tell and tellWithHighPriority, inherited from {@link TbActorRef}, send to the actor itself.
 */
public interface TbActorCtx extends TbActorRef {

    /** @return the id of this actor */
    TbActorId getSelf();

    /** @return the parent's reference, or null for a root actor */
    TbActorRef getParentRef();

    /**
     * Tells a message to another actor by id.
     *
     * @param target the receiver
     * @param msg the message
     * @throws TbActorNotRegisteredException when no actor has that id
     */
    void tell(TbActorId target, TbActorMsg msg);

    /**
     * Stops an actor and its children.
     *
     * @param target the actor to stop
     */
    void stop(TbActorId target);

    /**
     * Returns the child with that id, creating it when absent and {@code createCondition} holds.
     *
     * @param actorId the child's id
     * @param dispatcher supplies the dispatcher name, asked only when the child is created
     * @param creator supplies the creator, asked only when the child is created
     * @param createCondition asked only when the child is absent
     * @return the child, or null when it is absent and the condition said no
     */
    TbActorRef getOrCreateChildActor(TbActorId actorId, Supplier<String> dispatcher, Supplier<TbActorCreator> creator,
                                     Supplier<Boolean> createCondition);

    /**
     * Returns the child with that id, creating it when absent.
     *
     * @param actorId the child's id
     * @param dispatcher supplies the dispatcher name, asked only when the child is created
     * @param creator supplies the creator, asked only when the child is created
     * @return the child
     */
    default TbActorRef getOrCreateChildActor(TbActorId actorId, Supplier<String> dispatcher, Supplier<TbActorCreator> creator) {
        return getOrCreateChildActor(actorId, dispatcher, creator, () -> true);
    }

    /** @param msg told with normal priority to every child of this actor */
    void broadcastToChildren(TbActorMsg msg);

    /**
     * @param msg told to every child of this actor
     * @param highPriority whether to tell it with high priority
     */
    void broadcastToChildren(TbActorMsg msg, boolean highPriority);

    /**
     * @param msg told to every child whose id matches the filter
     * @param childFilter selects the children
     */
    void broadcastToChildren(TbActorMsg msg, Predicate<TbActorId> childFilter);

    /**
     * @param msg told to every child whose id has this entity type
     * @param entityType the entity type to match
     */
    void broadcastToChildrenByType(TbActorMsg msg, String entityType);

    /**
     * @param childFilter selects the children
     * @return the ids of the children that match, a snapshot
     */
    List<TbActorId> filterChildren(Predicate<TbActorId> childFilter);

    /**
     * Tells a message to this actor once, after a delay. The timer is cancelled when the actor stops.
     *
     * @param msg the message
     * @param delay how long to wait; not negative
     * @return a handle to cancel it
     */
    default TbTimer scheduleOnce(TbActorMsg msg, Duration delay) {
        throw new UnsupportedOperationException("timers are not supported by " + getClass().getName());
    }

    /**
     * Tells a message to this actor periodically. The timer is cancelled when the actor stops.
     *
     * @param msg the message, told again at each period
     * @param initialDelay delay before the first time; not negative
     * @param period time between two messages; positive
     * @return a handle to cancel it
     */
    default TbTimer schedulePeriodically(TbActorMsg msg, Duration initialDelay, Duration period) {
        throw new UnsupportedOperationException("timers are not supported by " + getClass().getName());
    }

    /**
     * Asks to stop this actor with reason {@link TbActorStopReason#IDLE} once it has had no message for the given
     * period; it is created again by the next {@code getOrCreateChildActor}. Messages told while it stops are told
     * {@code IDLE}, so their sender may create it again and retry.
     *
     * @param idleTimeout the idle period, positive; null turns passivation off
     */
    default void setIdleTimeout(Duration idleTimeout) {
        throw new UnsupportedOperationException("passivation is not supported by " + getClass().getName());
    }
}
