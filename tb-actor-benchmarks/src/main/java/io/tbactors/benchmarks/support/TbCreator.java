package io.tbactors.benchmarks.support;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import java.util.function.Supplier;

/**
 * A creator made of an id and a factory.
 *
 * @param id the actor's id
 * @param factory makes the actor
 */
public record TbCreator(TbActorId id, Supplier<? extends TbActor> factory) implements TbActorCreator {

    @Override
    public TbActorId createActorId() {
        return id;
    }

    @Override
    public TbActor createActor() {
        return factory.get();
    }
}
