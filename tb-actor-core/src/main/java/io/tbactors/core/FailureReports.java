package io.tbactors.core;

import io.tbactors.core.observe.ActorFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes failures of actors' own code visible by default: each is logged at WARN with the actor's id, type and the
 * exception (at most one line per actor type and interval, the next line saying how many were held back), counted,
 * told to the listener (the starter's {@code tb.actors.failures} meter), and kept among the last {@value #KEPT} for
 * endpoints. Failures are rare, so none of this is on the hot path.
 */
final class FailureReports {

    /** How many recent failures are kept. */
    static final int KEPT = 32;

    private static final Logger log = LoggerFactory.getLogger(FailureReports.class);

    private final ActorRuntime runtime;
    private final long logIntervalNanos;
    private final ConcurrentMap<String, RateLimitedWarning> warningsByType = new ConcurrentHashMap<>();
    private final LongAdder count = new LongAdder();
    // guarded by recent
    private final ActorFailure[] recent = new ActorFailure[KEPT];
    private long reported;

    FailureReports(ActorRuntime runtime, long logIntervalNanos) {
        this.runtime = runtime;
        this.logIntervalNanos = logIntervalNanos;
    }

    /**
     * Reports a failure of an actor's {@code init} or {@code process}.
     *
     * @param detail what was being done, e.g. the message type, or "attempt 3 (at most 10)"
     */
    void report(TbActorMailbox mailbox, ActorFailure.Phase phase, ActorFailure.Outcome outcome, String detail, Throwable failure) {
        count.increment();
        String actorType = mailbox.actorType();
        String dispatcher = mailbox.dispatcher().getName();
        ActorFailure record = new ActorFailure(Instant.now(), String.valueOf(mailbox.getSelf()), actorType, dispatcher, phase,
                outcome, failure.getClass().getName(), failure.getMessage());
        synchronized (recent) {
            recent[(int) (reported++ % KEPT)] = record;
        }
        if (runtime.listener != null) {
            runtime.listener.onActorFailure(mailbox.getSelf(), dispatcher, actorType, phase, outcome, failure);
        }
        long heldBack = warningsByType.computeIfAbsent(actorType, type -> new RateLimitedWarning(logIntervalNanos)).tryAcquire();
        if (heldBack >= 0) {
            log.warn("[{}] {} failed in {} ({}); {}{}", mailbox.getSelf(), actorType, phase.tag(), detail, describe(outcome),
                    heldBack == 0 ? "" : "; " + heldBack + " more failures of " + actorType + " since the last report", failure);
        }
    }

    private static String describe(ActorFailure.Outcome outcome) {
        return switch (outcome) {
            case RESUMED -> "the message is dropped and the actor resumes";
            case STOPPED -> "the actor is stopped";
            case RESTARTED -> "the actor is restarted";
            case RETRYING -> "init will be tried again";
            case GAVE_UP -> "the actor stays registered and refuses messages with INIT_FAILED until it is stopped or an update "
                    + "initialises it again";
        };
    }

    /** @return failures of actors' init and process so far */
    long count() {
        return count.sum();
    }

    /** @return the last failures, oldest first */
    List<ActorFailure> recent() {
        List<ActorFailure> list = new ArrayList<>(KEPT);
        synchronized (recent) {
            for (long i = Math.max(0, reported - KEPT); i < reported; i++) {
                list.add(recent[(int) (i % KEPT)]);
            }
        }
        return list;
    }
}
