package io.tbactors.kafka;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbStringActorId;
import io.tbactors.spring.TbRootActorCreator;
import java.util.function.Supplier;

/** Root actor declarations for the tests (kept for the cluster tests in {@code it}; new code calls {@link TbRootActorCreator#of}). */
public final class TestRoots {

    private TestRoots() {
    }

    /**
     * @param actor creates the root actor
     * @return a declaration of a root actor with the id {@code root}
     */
    public static TbRootActorCreator root(Supplier<TbActor> actor) {
        return TbRootActorCreator.of(new TbStringActorId("root"), actor);
    }
}
