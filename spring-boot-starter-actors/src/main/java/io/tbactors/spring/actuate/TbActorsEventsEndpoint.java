package io.tbactors.spring.actuate;

import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.ActorFailure;
import io.tbactors.core.observe.DeadLetter;
import io.tbactors.core.observe.DeadLetterListener;
import io.tbactors.core.observe.TbActorSystemIntrospection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code tbactorsevents} endpoint, where an operator looks for what went wrong lately: the last failures of actors'
 * {@code init} and {@code process} with what the runtime did, the last dead letters (messages to unknown or stopped
 * actors, refused or dropped by full mailboxes), and how many actors stopped for each reason. Dead letters are kept
 * from the endpoint's creation on, at most {@value #KEPT}; failures and stop counts come from the actor system.
 */
@Endpoint(id = TbActorsEventsEndpoint.ID)
public class TbActorsEventsEndpoint implements DisposableBean {

    /** Id of the endpoint, prefixed so that it cannot collide with another library's. */
    public static final String ID = "tbactorsevents";

    /** How many dead letters are kept. */
    static final int KEPT = 32;

    private final TbActorSystemIntrospection actorSystem;
    private final DeadLetterListener recorder = this::record;
    // guarded by itself
    private final RecentDeadLetter[] deadLetters = new RecentDeadLetter[KEPT];
    private long recorded;

    /** @param actorSystem the actor system to report on; the endpoint subscribes to its dead letters until destroyed */
    public TbActorsEventsEndpoint(TbActorSystemIntrospection actorSystem) {
        this.actorSystem = actorSystem;
        actorSystem.addDeadLetterListener(recorder);
    }

    private void record(DeadLetter letter) {
        RecentDeadLetter recent = new RecentDeadLetter(Instant.now(), String.valueOf(letter.target()),
                letter.message().getClass().getName(), letter.reason().name());
        synchronized (deadLetters) {
            deadLetters[(int) (recorded++ % KEPT)] = recent;
        }
    }

    /** @return the recent events */
    @ReadOperation
    public EventsDescriptor events() {
        List<RecentDeadLetter> letters = new ArrayList<>(KEPT);
        long total;
        synchronized (deadLetters) {
            total = recorded;
            for (long i = Math.max(0, recorded - KEPT); i < recorded; i++) {
                letters.add(deadLetters[(int) (i % KEPT)]);
            }
        }
        return new EventsDescriptor(actorSystem.getActorFailureCount(), actorSystem.getRecentFailures(), total, letters,
                actorSystem.getStopCountsByReason());
    }

    @Override
    public void destroy() {
        actorSystem.removeDeadLetterListener(recorder);
    }

    /**
     * @param failures failures of actors' init and process so far
     * @param recentFailures the last ones, oldest first
     * @param deadLetters dead letters since the endpoint was created
     * @param recentDeadLetters the last ones, oldest first
     * @param stopsByReason actors destroyed so far, by the reason of their stop
     */
    public record EventsDescriptor(long failures, List<ActorFailure> recentFailures, long deadLetters,
                                   List<RecentDeadLetter> recentDeadLetters, Map<TbActorStopReason, Long> stopsByReason) {
    }

    /**
     * @param time when it happened
     * @param target the actor id it was for
     * @param messageType the message's class name
     * @param reason why it reached no actor
     */
    public record RecentDeadLetter(Instant time, String target, String messageType, String reason) {
    }
}
