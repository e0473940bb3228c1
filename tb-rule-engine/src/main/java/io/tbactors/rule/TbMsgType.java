package io.tbactors.rule;

/**
 * Types of the messages that enter a rule chain (ThingsBoard's names).
 */
public final class TbMsgType {

    /** Telemetry posted by a device. */
    public static final String POST_TELEMETRY_REQUEST = "POST_TELEMETRY_REQUEST";

    /** Attributes posted by a device. */
    public static final String POST_ATTRIBUTES_REQUEST = "POST_ATTRIBUTES_REQUEST";

    /**
     * A device's own RPC request to the server (client-side RPC): data {@code {"method", "params"}}, metadata naming
     * the request ({@code requestId}) and the session that waits for the answer ({@code sessionId}).
     */
    public static final String TO_SERVER_RPC_REQUEST = "TO_SERVER_RPC_REQUEST";

    private TbMsgType() {
    }
}
