package io.tbactors.core.observe;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;

/**
 * Receives the runtime's events, for metrics and logging. Calls come from dispatcher threads, on the hot path:
 * implementations must be fast, thread-safe and must not throw. Tags given here are of low cardinality
 * (dispatcher name, actor type); actor ids are given only for rare events.
 */
public interface TbActorSystemListener {

    /** A listener that ignores everything. */
    TbActorSystemListener NOOP = new TbActorSystemListener() {
    };

    /**
     * A message was processed (or its processing threw).
     *
     * @param dispatcher the actor's dispatcher
     * @param actorType the actor's type (its class's simple name)
     * @param waitNanos time the message waited in the mailbox, or -1 when wait times are not recorded
     * @param processNanos time {@code process} took
     * @param failed whether {@code process} threw
     */
    default void onMessageProcessed(String dispatcher, String actorType, long waitNanos, long processNanos, boolean failed) {
    }

    /**
     * An actor's init threw.
     *
     * @param actorId the actor
     * @param dispatcher its dispatcher
     * @param actorType its type
     * @param attempt the attempt that failed, from 1
     * @param cause the failure
     */
    default void onInitFailure(TbActorId actorId, String dispatcher, String actorType, int attempt, Throwable cause) {
    }

    /**
     * An actor's {@code init} or {@code process} threw, and the runtime did what its failure strategy said.
     *
     * @param actorId the actor (not for metric tags: one time series per actor would be too many)
     * @param dispatcher the actor's dispatcher
     * @param actorType the actor's class name
     * @param phase which callback failed
     * @param outcome what the runtime did
     * @param cause what the callback threw
     */
    default void onActorFailure(TbActorId actorId, String dispatcher, String actorType, ActorFailure.Phase phase,
                                ActorFailure.Outcome outcome, Throwable cause) {
    }

    /**
     * An actor was created.
     *
     * @param dispatcher its dispatcher
     * @param actorType its type
     */
    default void onActorCreated(String dispatcher, String actorType) {
    }

    /**
     * An actor was destroyed.
     *
     * @param dispatcher its dispatcher
     * @param actorType its type
     * @param reason why
     */
    default void onActorDestroyed(String dispatcher, String actorType, TbActorStopReason reason) {
    }

    /**
     * A message will not be processed and its {@link TbActorMsg#onTbActorStopped} was called.
     *
     * @param target the actor it was told to, may be null when unknown
     * @param msg the message
     * @param reason why
     * @param afterSystemStop whether it was told after the actor system stopped
     */
    default void onMessageNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason, boolean afterSystemStop) {
    }

    /**
     * A {@code process} call took longer than the configured slow-processing threshold.
     *
     * @param dispatcher the actor's dispatcher
     * @param actorType the actor's type
     * @param processNanos how long it took
     */
    default void onSlowProcessing(String dispatcher, String actorType, long processNanos) {
    }

    /**
     * An actor was restarted after a failure ({@code ProcessFailureStrategy.restart()}).
     *
     * @param dispatcher its dispatcher
     * @param actorType its type
     */
    default void onActorRestarted(String dispatcher, String actorType) {
    }

    /**
     * A {@code tryTell} was refused because the bounded mailbox was full; the message stayed with its sender.
     *
     * @param dispatcher the actor's dispatcher
     * @param actorType the actor's type
     */
    default void onTryTellRefused(String dispatcher, String actorType) {
    }
}
