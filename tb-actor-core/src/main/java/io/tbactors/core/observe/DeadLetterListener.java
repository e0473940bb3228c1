package io.tbactors.core.observe;

/**
 * Subscribes to dead letters: messages told to unknown or stopped actors, refused by full mailboxes, or told after
 * the system stopped. Called on the thread that found the letter dead; must be fast and must not throw.
 */
@FunctionalInterface
public interface DeadLetterListener {

    /** @param deadLetter the message that reached no actor */
    void onDeadLetter(DeadLetter deadLetter);
}
