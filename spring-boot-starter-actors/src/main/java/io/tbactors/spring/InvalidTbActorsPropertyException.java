package io.tbactors.spring;

/**
 * A {@code tb.actors.*} property has a value the actor system cannot run with. Start-up fails with it, and
 * {@link TbActorsFailureAnalyzer} turns it into a report that names the property and what is allowed.
 */
public class InvalidTbActorsPropertyException extends IllegalArgumentException {

    private final String property;
    private final transient Object value;
    private final String allowed;

    /**
     * @param property the property's full name, such as {@code tb.actors.throughput}
     * @param value the value it has
     * @param allowed what it may be, in words
     */
    public InvalidTbActorsPropertyException(String property, Object value, String allowed) {
        super("Invalid value '" + value + "' for property '" + property + "': allowed is " + allowed);
        this.property = property;
        this.value = value;
        this.allowed = allowed;
    }

    /** @return the property's full name */
    public String getProperty() {
        return property;
    }

    /** @return the rejected value */
    public Object getValue() {
        return value;
    }

    /** @return what the property may be, in words */
    public String getAllowed() {
        return allowed;
    }
}
