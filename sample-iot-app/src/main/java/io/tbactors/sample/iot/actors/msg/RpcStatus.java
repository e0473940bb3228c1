package io.tbactors.sample.iot.actors.msg;

/**
 * The states of a server-side RPC, ThingsBoard's names. A request not persisted ends in {@link #SUCCESSFUL} (two-way:
 * the device answered), {@link #DELIVERED} (one-way: sent to a session of the device), {@link #TIMEOUT} or
 * {@link #FAILED} (with a reason); {@link #QUEUED}, {@link #SENT} and {@link #EXPIRED} belong to persistent RPC.
 */
public enum RpcStatus {
    /** Waiting for a session of the device. */
    QUEUED,
    /** Sent to a session, no answer yet. */
    SENT,
    /** One-way: sent to a session of the device. */
    DELIVERED,
    /** Two-way: the device answered. */
    SUCCESSFUL,
    /** The device did not answer within the request's timeout. */
    TIMEOUT,
    /** Persistent RPC: its expiration time passed before it could be sent. */
    EXPIRED,
    /** Not sent or not answered, for the reason given: the device was deleted, the node stopped, the queue was full. */
    FAILED
}
