package io.tbactors.testkit;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbStringActorId;
import java.util.function.Supplier;

/** Creators for tests, where a named creator class per actor would be noise. */
public final class TbActorCreators {

    private TbActorCreators() {
    }

    /**
     * @param id the actor's id
     * @param actor makes the actor; asked at most once per live id, as any creator
     * @return a creator of that actor under that id
     */
    public static TbActorCreator of(TbActorId id, Supplier<? extends TbActor> actor) {
        return TbActorCreator.of(id, actor);
    }

    /**
     * @param name the actor's id, as a string id
     * @param actor makes the actor
     * @return a creator of that actor under that id
     */
    public static TbActorCreator of(String name, Supplier<? extends TbActor> actor) {
        return of(new TbStringActorId(name), actor);
    }
}
