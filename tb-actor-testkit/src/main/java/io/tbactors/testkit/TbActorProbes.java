package io.tbactors.testkit;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorSystem;
import io.tbactors.api.TbStringActorId;
import java.util.Objects;

/**
 * Makes probes in one actor system: {@link TbTestActorSystem#probes()}, and a bean in Spring Boot tests annotated with
 * {@code @AutoConfigureTbActors}.
 */
public class TbActorProbes {

    private final TbActorSystem system;
    private final String dispatcher;

    /**
     * @param system the actor system
     * @param dispatcher the dispatcher registered probes run on
     */
    public TbActorProbes(TbActorSystem system, String dispatcher) {
        this.system = Objects.requireNonNull(system, "system must not be null");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher must not be null");
    }

    /**
     * @param name the probe's id
     * @return a probe not registered in the system, to pass as a reply-to or subscriber
     */
    public TbActorProbe create(String name) {
        return TbActorProbe.create(name, system);
    }

    /**
     * @param name the probe's id
     * @return a probe registered as a root actor of the system
     */
    public TbActorProbe spawn(String name) {
        return TbActorProbe.spawn(system, dispatcher, new TbStringActorId(name));
    }

    /**
     * @param id the probe's id
     * @param parent the id of a live actor
     * @return a probe registered as that actor's child, found by its {@code getOrCreateChildActor(id, ...)}
     */
    public TbActorProbe spawnChild(TbActorId id, TbActorId parent) {
        return TbActorProbe.spawnChild(system, dispatcher, id, parent);
    }

    /** @return the dispatcher registered probes run on */
    public String getDispatcher() {
        return dispatcher;
    }
}
