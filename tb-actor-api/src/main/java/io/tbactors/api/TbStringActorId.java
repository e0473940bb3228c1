package io.tbactors.api;

import java.util.Objects;

/**
 * An actor id made of a plain string, for singleton-like actors such as the application root.
 */
public final class TbStringActorId implements TbActorId {

    private final String id;

    /**
     * @param id the id; must not be null
     */
    public TbStringActorId(String id) {
        this.id = Objects.requireNonNull(id, "actor id string must not be null");
    }

    /** @return the id string */
    public String getId() {
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof TbStringActorId other && id.equals(other.id));
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return id;
    }
}
