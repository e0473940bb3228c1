package io.tbactors.sample.iot.actors.msg;

import java.util.UUID;

import io.tbactors.api.TbActorMsg;

/**
 * How a request ended, sent by the device's owner node to the node whose caller waits for it (the {@code cluster}
 * profile, over the node channel).
 *
 * @param rpcId the request
 * @param outcome how it ended
 */
public record ClusterRpcOutcome(UUID rpcId, RpcOutcome outcome) implements TbActorMsg {
}
