package io.tbactors.rule.node;

/**
 * Relation names of the built-in nodes (ThingsBoard's names).
 */
public final class Relations {

    /** The node did its work. */
    public static final String SUCCESS = "Success";
    /** The node threw; its message carries the error in metadata {@code error}. */
    public static final String FAILURE = "Failure";
    /** A filter's condition held. */
    public static final String TRUE = "True";
    /** A filter's condition did not hold. */
    public static final String FALSE = "False";
    /** The message-type switch saw telemetry. */
    public static final String POST_TELEMETRY = "Post telemetry";
    /** The message-type switch saw attributes. */
    public static final String POST_ATTRIBUTES = "Post attributes";
    /** The message-type switch saw a device's RPC request ({@link io.tbactors.rule.TbMsgType#TO_SERVER_RPC_REQUEST}). */
    public static final String RPC_REQUEST_FROM_DEVICE = "RPC Request from Device";
    /** The message-type switch saw another type. */
    public static final String OTHER = "Other";

    private Relations() {
    }
}
