package io.tbactors.kafka;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorId;
import io.tbactors.api.TbStringActorId;
import io.tbactors.spring.TbRootActorCreator;
import java.util.function.Supplier;

/** Root actor declarations for the tests. */
public final class TestRoots {

    private TestRoots() {
    }

    /**
     * @param actor creates the root actor
     * @return a declaration of a root actor with the id {@code root}
     */
    public static TbRootActorCreator root(Supplier<TbActor> actor) {
        return new TbRootActorCreator() {
            @Override
            public TbActorId createActorId() {
                return new TbStringActorId("root");
            }

            @Override
            public TbActor createActor() {
                return actor.get();
            }
        };
    }
}
