package io.tbactors.sample.iot.actors.msg;

/**
 * How a server-side RPC ended.
 *
 * @param status {@link RpcStatus#SUCCESSFUL}, {@link RpcStatus#DELIVERED}, {@link RpcStatus#TIMEOUT} or
 *     {@link RpcStatus#FAILED}
 * @param response the device's answer as it sent it (two-way, successful), else null
 * @param reason why it failed or timed out, for the caller, else null
 * @param refused whether it failed because the device's queue of waiting requests was full (the caller may retry)
 */
public record RpcOutcome(RpcStatus status, String response, String reason, boolean refused) {

    /**
     * @param response the device's answer
     * @return a two-way request the device answered
     */
    public static RpcOutcome successful(String response) {
        return new RpcOutcome(RpcStatus.SUCCESSFUL, response, null, false);
    }

    /** @return a one-way request sent to a session of the device */
    public static RpcOutcome delivered() {
        return new RpcOutcome(RpcStatus.DELIVERED, null, null, false);
    }

    /**
     * @param reason what timed out
     * @return a request the device did not answer (or, one-way, could not be sent) in time
     */
    public static RpcOutcome timeout(String reason) {
        return new RpcOutcome(RpcStatus.TIMEOUT, null, reason, false);
    }

    /**
     * @param reason why
     * @return a request that was not sent or not answered
     */
    public static RpcOutcome failed(String reason) {
        return new RpcOutcome(RpcStatus.FAILED, null, reason, false);
    }

    /**
     * @param reason why, with the bound
     * @return a request refused because the device's queue of waiting requests was full
     */
    public static RpcOutcome refused(String reason) {
        return new RpcOutcome(RpcStatus.FAILED, null, reason, true);
    }
}
