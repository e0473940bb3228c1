package io.tbactors.rule;

/**
 * Types of the messages that enter a rule chain (ThingsBoard's names).
 */
public final class TbMsgType {

    /** Telemetry posted by a device. */
    public static final String POST_TELEMETRY_REQUEST = "POST_TELEMETRY_REQUEST";

    /** Attributes posted by a device. */
    public static final String POST_ATTRIBUTES_REQUEST = "POST_ATTRIBUTES_REQUEST";

    private TbMsgType() {
    }
}
