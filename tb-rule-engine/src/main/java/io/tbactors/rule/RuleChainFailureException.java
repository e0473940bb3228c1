package io.tbactors.rule;

/**
 * A rule node failed on a message and the chain has no {@code Failure} connection to take it on, so the message
 * did not go through its chain (the device API answers 500 with this reason).
 */
public class RuleChainFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param reason which node failed and why */
    public RuleChainFailureException(String reason) {
        super(reason);
    }

    /**
     * @param reason which node failed and why
     * @param cause the node's error, or null
     */
    public RuleChainFailureException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
