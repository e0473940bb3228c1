package io.tbactors.spring.metrics;

/** Names of the meters the starter registers; all tags are of low cardinality (dispatcher, actor type, reason). */
public final class TbActorsMeterNames {

    /**
     * Timer of processing, tags {@code dispatcher}, {@code actor.type} and {@code outcome} ({@value #OUTCOME_SUCCESS}
     * or {@value #OUTCOME_FAILURE}); its count is the number of processed messages.
     */
    public static final String MESSAGES_PROCESSING = "tb.actors.messages.processing";

    /** Tag of {@link #MESSAGES_PROCESSING}: whether processing returned or threw. */
    public static final String OUTCOME = "outcome";

    /** {@link #OUTCOME} of a message whose processing returned. */
    public static final String OUTCOME_SUCCESS = "success";

    /** {@link #OUTCOME} of a message whose processing threw. */
    public static final String OUTCOME_FAILURE = "failure";

    /** Timer of the time messages wait in mailboxes (with {@code tb.actors.metrics.wait-time=true}). */
    public static final String MESSAGES_WAIT = "tb.actors.messages.wait";

    /** Counter of messages never processed (each told why), tag {@code reason}. */
    public static final String MESSAGES_NOT_PROCESSED = "tb.actors.messages.not.processed";

    /** Counter of messages told after shutdown began (each told {@code STOPPED}). */
    public static final String MESSAGES_TOLD_AFTER_STOP = "tb.actors.messages.told.after.stop";

    /** Gauge of messages waiting in mailboxes, tag {@code dispatcher}. */
    public static final String MAILBOX_BACKLOG = "tb.actors.mailbox.backlog";

    /** Gauge of live actors, tags {@code dispatcher}, {@code actor.type}. */
    public static final String ACTORS_ALIVE = "tb.actors.alive";

    /** Counter of failed actor init attempts, tags {@code dispatcher}, {@code actor.type}. */
    public static final String INIT_FAILURES = "tb.actors.init.failures";

    /**
     * Counter of failures of actors' own code, tags {@code actor.type}, {@code phase} ({@code init} or {@code process})
     * and {@code outcome} ({@code resumed}, {@code stopped}, {@code restarted}, {@code retrying} or {@code gave-up}).
     */
    public static final String FAILURES = "tb.actors.failures";

    /** Counter of messages slower than {@code tb.actors.slow-processing-threshold}, tags {@code dispatcher}, {@code actor.type}. */
    public static final String MESSAGES_SLOW = "tb.actors.messages.slow";

    /** Counter of {@code tryTell} calls refused by a full mailbox, tags {@code dispatcher}, {@code actor.type}. */
    public static final String MESSAGES_REFUSED = "tb.actors.messages.refused";

    /** Counter of actor restarts, tags {@code dispatcher}, {@code actor.type}. */
    public static final String RESTARTS = "tb.actors.restarts";

    /** Counter of dead letters (messages to unknown or stopped actors, refused or dropped by full mailboxes). */
    public static final String DEAD_LETTERS = "tb.actors.dead.letters";

    /** Counter of actors stopped for being idle. */
    public static final String PASSIVATED = "tb.actors.passivated";

    /** Counter of user callbacks and plug-ins that threw and were contained by the runtime. */
    public static final String CALLBACK_FAILURES = "tb.actors.callback.failures";

    /** Counter of actor turns a dispatcher has run, tag {@code dispatcher}. */
    public static final String DISPATCHER_TURNS = "tb.actors.dispatcher.turns";

    /** Prefix of each dispatcher's executor meters ({@code tb.actors.executor.*}), tag {@code name} (the dispatcher). */
    public static final String EXECUTOR_PREFIX = "tb.actors";

    /** Base unit of meters that count messages. */
    public static final String UNIT_MESSAGES = "messages";

    /** Base unit of meters that count actors. */
    public static final String UNIT_ACTORS = "actors";

    /** Base unit of meters that count dispatcher turns. */
    public static final String UNIT_TURNS = "turns";

    /** Base unit of meters that count failures or restarts. */
    public static final String UNIT_EVENTS = "events";

    private TbActorsMeterNames() {
    }
}
