package io.tbactors.spring.actuate;

import io.tbactors.api.TbActorRef;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import io.tbactors.spring.ActorSystemContext;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code tbactors} endpoint: live actors counted by dispatcher and type, the actors with the largest mailboxes
 * ({@code ?limit=} how many, 10 by default), the count of actors' init and process failures with the last few of them,
 * and {@code /tbactors/{id}} for one actor's state. An id's text is its
 * {@code toString()}, such as {@code DEVICE|4d3c...}; URL-encode it.
 */
@Endpoint(id = TbActorsEndpoint.ID)
public class TbActorsEndpoint {

    /** Id of the endpoint, prefixed so that it cannot collide with another library's. */
    public static final String ID = "tbactors";

    static final int DEFAULT_LIMIT = 10;
    static final int MAX_LIMIT = 1000;

    private final TbActorSystemIntrospection actorSystem;
    private final ActorSystemContext actorSystemContext;

    /**
     * @param actorSystem the actor system to report on
     * @param actorSystemContext the application's context, for the root actor and whether messages are accepted
     */
    public TbActorsEndpoint(TbActorSystemIntrospection actorSystem, ActorSystemContext actorSystemContext) {
        this.actorSystem = actorSystem;
        this.actorSystemContext = actorSystemContext;
    }

    /**
     * @param limit how many of the largest mailboxes to list, 10 when absent, at most 1000
     * @return the overview
     */
    @ReadOperation
    public ActorsDescriptor actors(@Nullable Integer limit) {
        int top = limit == null ? DEFAULT_LIMIT : Math.max(0, Math.min(limit, MAX_LIMIT));
        Map<String, Map<String, Integer>> byDispatcher = actorSystem.getActorCountsByDispatcherAndType();
        Map<String, Integer> byType = new TreeMap<>();
        byDispatcher.values().forEach(types -> types.forEach((type, count) -> byType.merge(type, count, Integer::sum)));
        TbActorRef root = actorSystemContext.getRootActor();
        return new ActorsDescriptor(actorSystem.getActorCount(), actorSystem.getPendingMessages(),
                root == null ? null : root.getActorId().toString(), actorSystemContext.isAcceptingMessages(),
                actorSystem.getNotProcessedCount(), actorSystem.getToldAfterStopCount() + actorSystemContext.getRejectedMessageCount(),
                byType, byDispatcher, actorSystem.getLargestMailboxes(top), actorSystem.getActorFailureCount(),
                actorSystem.getRecentFailures());
    }

    /**
     * @param id the actor id's text, which may contain slashes
     * @return that actor's state, or null (a 404) when no such actor lives
     */
    @ReadOperation
    public @Nullable ActorStats actor(@Selector(match = Selector.Match.ALL_REMAINING) String[] id) {
        return actorSystem.findActorStats(String.join("/", id)).orElse(null);
    }

    /**
     * @param count live actors
     * @param pendingMessages messages waiting in all mailboxes
     * @param rootActor the root actor's id, or null when there is none
     * @param acceptingMessages whether the application still accepts messages
     * @param notProcessed messages that were not processed (each was told why)
     * @param toldAfterStop messages told after shutdown began (each was told {@code STOPPED})
     * @param byType live actors by actor type
     * @param byDispatcher live actors by dispatcher, then by actor type
     * @param largestMailboxes the actors with the most waiting messages, largest first
     * @param failures failures of actors' init and process so far
     * @param recentFailures the last few failures (time, actor, type, phase, outcome, exception class and message)
     */
    public record ActorsDescriptor(int count, long pendingMessages, @Nullable String rootActor, boolean acceptingMessages,
                                   long notProcessed, long toldAfterStop, Map<String, Integer> byType,
                                   Map<String, Map<String, Integer>> byDispatcher, List<ActorStats> largestMailboxes,
                                   long failures, List<ActorFailure> recentFailures) {
    }
}
