package io.tbactors.rule.node;

import java.util.List;

/**
 * Collects the errors of one node's configuration, each at its field's location, e.g.
 * {@code nodes[1].configuration.alarmType: is required}.
 */
public final class NodeConfigErrors {

    private final String path;
    private final List<String> errors;

    /**
     * @param path where the configuration is, e.g. {@code nodes[1].configuration}
     * @param errors where errors are added
     */
    public NodeConfigErrors(String path, List<String> errors) {
        this.path = path;
        this.errors = errors;
    }

    /**
     * @param field the field, e.g. {@code set.x}
     * @param message what is wrong with it and what is allowed
     */
    public void error(String field, String message) {
        errors.add(path + "." + field + ": " + message);
    }

    /** @param message what is wrong with the configuration as a whole */
    public void error(String message) {
        errors.add(path + ": " + message);
    }
}
