package io.tbactors.api;

/**
 * Identity of an actor inside one actor system. Implementations must have value semantics
 * ({@code equals}/{@code hashCode}) because ids are used as registry keys.
 */
public interface TbActorId {

    /**
     * Entity type of the actor, for actors that stand for an entity (a tenant, a device).
     *
     * @return the entity type, or {@code null} when the actor is not an entity's
     */
    default String getEntityType() {
        return null;
    }
}
