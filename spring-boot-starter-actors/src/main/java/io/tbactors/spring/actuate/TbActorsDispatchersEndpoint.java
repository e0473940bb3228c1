package io.tbactors.spring.actuate;

import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code tbactorsdispatchers} endpoint: each dispatcher with its kind, pool size, threads, active and queued turns,
 * completed turns, actors and the messages waiting in their mailboxes; {@code /tbactorsdispatchers/{name}} for one.
 */
@Endpoint(id = TbActorsDispatchersEndpoint.ID)
public class TbActorsDispatchersEndpoint {

    /** Id of the endpoint, prefixed so that it cannot collide with another library's. */
    public static final String ID = "tbactorsdispatchers";

    private final TbActorSystemIntrospection actorSystem;

    /** @param actorSystem the actor system to report on */
    public TbActorsDispatchersEndpoint(TbActorSystemIntrospection actorSystem) {
        this.actorSystem = actorSystem;
    }

    /** @return every dispatcher, sorted by name */
    @ReadOperation
    public DispatchersDescriptor dispatchers() {
        return new DispatchersDescriptor(actorSystem.isRunning(), actorSystem.getDispatcherStats());
    }

    /**
     * @param name a dispatcher's name
     * @return that dispatcher, or null (a 404) when there is none
     */
    @ReadOperation
    public @Nullable DispatcherStats dispatcher(@Selector String name) {
        return actorSystem.getDispatcherStats().stream().filter(stats -> stats.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * @param running whether the actor system runs
     * @param dispatchers each dispatcher, sorted by name
     */
    public record DispatchersDescriptor(boolean running, List<DispatcherStats> dispatchers) {
    }
}
