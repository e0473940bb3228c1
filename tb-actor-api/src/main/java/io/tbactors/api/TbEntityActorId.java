package io.tbactors.api;

import java.util.Objects;
import java.util.UUID;

/**
 * An actor id for an entity: a type such as {@code "DEVICE"} and the entity's UUID.
 * Its string form is {@code TYPE|uuid}.
 */
public final class TbEntityActorId implements TbActorId {

    private final String entityType;
    private final UUID entityId;

    /**
     * @param entityType the entity type; must not be null or blank and must not contain {@code '|'}
     * @param entityId the entity's id; must not be null
     */
    public TbEntityActorId(String entityType, UUID entityId) {
        Objects.requireNonNull(entityType, "entityType must not be null");
        if (entityType.isBlank() || entityType.indexOf('|') >= 0) {
            throw new IllegalArgumentException("entityType must be a non-blank string without '|', got '" + entityType + "'");
        }
        this.entityType = entityType;
        this.entityId = Objects.requireNonNull(entityId, "entityId must not be null");
    }

    @Override
    public String getEntityType() {
        return entityType;
    }

    /** @return the entity's UUID */
    public UUID getEntityId() {
        return entityId;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof TbEntityActorId other
                && entityId.equals(other.entityId) && entityType.equals(other.entityType));
    }

    @Override
    public int hashCode() {
        return 31 * entityType.hashCode() + entityId.hashCode();
    }

    @Override
    public String toString() {
        return entityType + "|" + entityId;
    }
}
