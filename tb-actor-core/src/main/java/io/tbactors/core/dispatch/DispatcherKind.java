package io.tbactors.core.dispatch;

import java.util.Locale;

/**
 * The kinds of executor a dispatcher can run on.
 */
public enum DispatcherKind {

    /** A work-stealing fork-join pool in FIFO (async) mode; with one thread it becomes {@link #SINGLE}. */
    FORK_JOIN("fork-join"),

    /** One plain platform thread with an unbounded task queue. */
    SINGLE("single"),

    /** A new virtual thread per turn (Java 21+). */
    VIRTUAL("virtual"),

    /** An executor supplied by the application. */
    CUSTOM("custom");

    private final String label;

    DispatcherKind(String label) {
        this.label = label;
    }

    /** @return the kebab-case name used in configuration and reports */
    public String label() {
        return label;
    }

    /**
     * @param text a kind as written in configuration: {@code fork-join}, {@code single}, {@code virtual}
     * @return the kind
     * @throws IllegalArgumentException naming the allowed values
     */
    public static DispatcherKind fromLabel(String text) {
        String normalized = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (DispatcherKind kind : values()) {
            if (kind.label.equals(normalized)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("Unknown dispatcher kind '" + text + "'; allowed: fork-join, single, virtual, custom");
    }
}
