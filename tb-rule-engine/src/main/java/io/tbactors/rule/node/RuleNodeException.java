package io.tbactors.rule.node;

/**
 * A rule node cannot process a message; the message leaves the node on {@code Failure}.
 */
public class RuleNodeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what went wrong */
    public RuleNodeException(String message) {
        super(message);
    }
}
