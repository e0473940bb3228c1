package io.tbactors.rule;

/**
 * The text of a node's failure that goes into the message's metadata {@code error} and, when no {@code Failure}
 * connection takes it on, into the chain's failure (which a device API may show its client). A bean of this type
 * replaces the default, the exception's message; e.g. to leave out SQL a database exception carries.
 */
@FunctionalInterface
public interface RuleNodeFailureReason {

    /**
     * @param failure the node's error
     * @return the text a sender may read
     */
    String reason(Throwable failure);
}
