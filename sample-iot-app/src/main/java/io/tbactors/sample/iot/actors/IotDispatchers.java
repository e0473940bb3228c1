package io.tbactors.sample.iot.actors;

/**
 * Dispatcher names, one per kind of actor, configured under {@code tb.actors.dispatchers} in application.yml.
 */
public final class IotDispatchers {

    /** The application actor. */
    public static final String APP = "app";
    /** Tenant actors. */
    public static final String TENANT = "tenant";
    /** Device actors. */
    public static final String DEVICE = "device";
    /** Rule chain and rule node actors. */
    public static final String RULE = "rule";

    private IotDispatchers() {
    }
}
