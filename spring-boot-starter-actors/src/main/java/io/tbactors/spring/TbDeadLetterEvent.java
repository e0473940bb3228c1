package io.tbactors.spring;

import io.tbactors.core.observe.DeadLetter;
import org.springframework.context.ApplicationEvent;

/**
 * Published for each dead letter (a message to an unknown or stopped actor, or refused by a full mailbox) when
 * {@code tb.actors.dead-letters.publish-events} is on. Listeners run on the thread that found the letter dead, often a
 * dispatcher thread: keep them short.
 */
public class TbDeadLetterEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient DeadLetter deadLetter;

    /**
     * @param source the actor system
     * @param deadLetter the letter
     */
    public TbDeadLetterEvent(Object source, DeadLetter deadLetter) {
        super(source);
        this.deadLetter = deadLetter;
    }

    /** @return the message, its target and why it reached no actor */
    public DeadLetter getDeadLetter() {
        return deadLetter;
    }
}
