package io.tbactors.api;

/**
 * A message that carries new configuration for an actor. Told with high priority to an actor whose init failed
 * (it stays registered, refusing messages with {@link TbActorStopReason#INIT_FAILED}), it runs the actor's
 * {@code init} again, then is processed like any other message. This is the runtime's form of ThingsBoard's
 * rule-node update message, without a message-type enum.
 */
public interface TbActorUpdateMsg extends TbActorMsg {
}
