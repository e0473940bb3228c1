package io.tbactors.core.observe;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;

/**
 * Sees each message told to an actor's mailbox and then the one way it ended, so a test can check that nothing was
 * lost: after {@link #onTold} exactly one of {@link #onProcessed}, {@link #onNotProcessed}, {@link #onHandedBack} or
 * {@link #onWithdrawn} follows for that message, on whichever thread settles it. A message told to an id that has no
 * actor reaches no mailbox and is not seen here; it is a dead letter and its sender gets an exception.
 *
 * <p>Meant for tests ({@code tb-actor-testkit} installs one): when none is given to
 * {@code TbActorSystemSettings.builder().messageFateObserver(...)} the runtime pays one null check per tell and per
 * processed message. When one is given, it is called on the hot path of every message: it must be thread-safe and
 * fast. If it throws, the failure is counted and logged like any callback's and the message's fate goes on.
 * The same message instance may be told several times (a broadcast, a periodic timer): each tell has its own fate.
 */
public interface TbMessageFateObserver {

    /**
     * A message was handed to an actor's mailbox; called before it can be processed.
     *
     * @param target the actor
     * @param msg the message
     */
    default void onTold(TbActorId target, TbActorMsg msg) {
    }

    /**
     * The actor's {@code process} is about to be called with the message (it counts even if {@code process} throws
     * or never returns).
     *
     * @param target the actor
     * @param msg the message
     */
    default void onProcessed(TbActorId target, TbActorMsg msg) {
    }

    /**
     * The message will never be processed and its {@code onTbActorStopped(reason)} was called: the actor was stopping,
     * stopped with it queued, failed to init, or a full mailbox refused or dropped it.
     *
     * @param target the actor
     * @param msg the message
     * @param reason what it was told
     */
    default void onNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
    }

    /**
     * {@code tryTell} refused the message (a full mailbox, or an actor stopping) and returned {@code false}: the sender
     * keeps it, no callback is made.
     *
     * @param target the actor
     * @param msg the message
     */
    default void onHandedBack(TbActorId target, TbActorMsg msg) {
    }

    /**
     * A tick of a periodic timer was queued and the timer was cancelled before the tick's turn came: the actor that
     * cancelled it does not get it.
     *
     * @param target the actor
     * @param msg the timer's message
     */
    default void onWithdrawn(TbActorId target, TbActorMsg msg) {
    }
}
