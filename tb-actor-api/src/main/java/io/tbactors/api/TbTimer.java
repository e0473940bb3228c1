package io.tbactors.api;

/**
 * A message scheduled to an actor's own mailbox, once or periodically. Every timer of an actor is cancelled when it stops.
 */
public interface TbTimer {

    /**
     * Cancels the timer; a message already queued by it stays queued.
     *
     * @return whether this call cancelled it (false when it had already fired once-only or was cancelled)
     */
    boolean cancel();

    /** @return whether the timer will fire no more */
    boolean isCancelled();
}
