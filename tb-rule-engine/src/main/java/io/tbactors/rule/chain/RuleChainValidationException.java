package io.tbactors.rule.chain;

import java.util.List;

/**
 * A rule chain's JSON is invalid. Each error starts with where it is, e.g.
 * {@code nodes[2].configuration.condition: ...}.
 */
public class RuleChainValidationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> errors;

    /** @param errors what is wrong, each with its location */
    public RuleChainValidationException(List<String> errors) {
        super("Invalid rule chain: " + String.join("; ", errors));
        this.errors = List.copyOf(errors);
    }

    /** @return what is wrong, each with its location */
    public List<String> getErrors() {
        return errors;
    }
}
