package io.tbactors.spring;

import io.tbactors.api.TbActorCreator;

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
}
