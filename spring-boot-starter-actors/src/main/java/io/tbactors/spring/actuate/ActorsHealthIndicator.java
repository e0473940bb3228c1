package io.tbactors.spring.actuate;

import io.tbactors.core.observe.DispatcherStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.ActorSystemContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of the actor system, shown as the {@code actors} component: {@code UP} while it runs, {@code DOWN} once it
 * has stopped or a dispatcher's threads have terminated, {@code OUT_OF_SERVICE} while it shuts down, and
 * {@link #WARNING} when more messages wait in the mailboxes than {@code tb.actors.health.backlog-warning-threshold}.
 *
 * <p>{@code WARNING} is not part of Spring Boot's default status order, so it does not change the application's
 * overall status unless {@code management.endpoint.health.status.order} lists it.
 */
public class ActorsHealthIndicator extends AbstractHealthIndicator {

    /** The status reported when the mailbox backlog passes its threshold. */
    public static final Status WARNING = new Status("WARNING", "Mailbox backlog above its threshold");

    private final TbActorSystemIntrospection actorSystem;
    private final ActorSystemContext actorSystemContext;
    private final long backlogWarningThreshold;

    /**
     * @param actorSystemContext tells whether the application still accepts messages
     * @param backlogWarningThreshold waiting messages above which the status is {@link #WARNING}
     */
    public ActorsHealthIndicator(TbActorSystemIntrospection actorSystem, ActorSystemContext actorSystemContext,
                                 long backlogWarningThreshold) {
        super("Actor system health check failed");
        this.actorSystem = actorSystem;
        this.actorSystemContext = actorSystemContext;
        this.backlogWarningThreshold = backlogWarningThreshold;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        List<DispatcherStats> dispatchers = actorSystem.getDispatcherStats();
        long backlog = 0;
        boolean terminated = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (DispatcherStats stats : dispatchers) {
            backlog += stats.pendingMessages();
            terminated |= stats.terminated();
            details.put(stats.name(), dispatcherDetails(stats));
        }
        builder.withDetail("actors", actorSystem.getActorCount())
                .withDetail("backlog", backlog)
                .withDetail("backlogWarningThreshold", backlogWarningThreshold)
                .withDetail("acceptingMessages", actorSystemContext.isAcceptingMessages())
                .withDetail("dispatchers", details);
        if (!actorSystem.isRunning()) {
            builder.down().withDetail("reason", "the actor system is stopped");
        } else if (terminated) {
            builder.down().withDetail("reason", "a dispatcher's threads have terminated");
        } else if (!actorSystemContext.isAcceptingMessages()) {
            builder.outOfService().withDetail("reason", "the application is shutting down");
        } else if (backlog > backlogWarningThreshold) {
            builder.status(WARNING).withDetail("reason", backlog + " messages wait in mailboxes, more than "
                    + backlogWarningThreshold);
        } else {
            builder.up();
        }
    }

    private static Map<String, Object> dispatcherDetails(DispatcherStats stats) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("kind", stats.kind());
        details.put("threads", stats.threads());
        details.put("active", stats.activeThreads());
        details.put("queued", stats.queuedTasks());
        details.put("actors", stats.actors());
        details.put("backlog", stats.pendingMessages());
        details.put("terminated", stats.terminated());
        return details;
    }
}
