package io.tbactors.spring;

import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorCreator;
import io.tbactors.api.TbActorId;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Declares the application's root actor. Define exactly one bean of this type and the starter creates the root
 * actor once the application context has started; {@link ActorSystemContext#tell} then delivers to it.
 *
 * <p>Without such a bean the actor system still runs (actors can be created on the {@code TbActorSystem} bean
 * directly), but {@link ActorSystemContext#tell} refuses with an explanation. Two such beans fail start-up.
 */
public interface TbRootActorCreator extends TbActorCreator {

    /**
     * @return the dispatcher the root actor runs on, or null for the one named by {@code tb.actors.root-dispatcher}
     *     (by default {@code default})
     */
    default String getDispatcherName() {
        return null;
    }

    /**
     * A root declaration made of an id and a constructor call, on the dispatcher named by
     * {@code tb.actors.root-dispatcher}: {@code @Bean TbRootActorCreator root() { return TbRootActorCreator.of(id, AppActor::new); }}.
     *
     * @param rootId the root actor's id; not null
     * @param actor makes the root actor (again after a restart); not null
     * @return the declaration
     */
    static TbRootActorCreator of(TbActorId rootId, Supplier<? extends TbActor> actor) {
        TbActorCreator creator = TbActorCreator.of(rootId, actor);
        return new TbRootActorCreator() {
            @Override
            public TbActorId createActorId() {
                return creator.createActorId();
            }

            @Override
            public TbActor createActor() {
                return Objects.requireNonNull(creator.createActor(), "the root actor supplier returned null");
            }

            @Override
            public String toString() {
                return "TbRootActorCreator{" + rootId + '}';
            }
        };
    }
}
