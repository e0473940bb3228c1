package io.tbactors.sample.iot.actors;

import java.util.function.Supplier;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;

/**
 * Creates one of the sample's actors from its id and a constructor call, so no actor needs a creator class of its
 * own. The actor system calls {@code factory} at most once per live id.
 *
 * @param id the actor's id
 * @param factory makes the actor
 */
record IotActorCreator(TbActorId id, Supplier<TbActor> factory) implements TbActorCreator {

    @Override
    public TbActorId createActorId() {
        return id;
    }

    @Override
    public TbActor createActor() {
        return factory.get();
    }
}
