package io.tbactors.core.observe;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;

/**
 * A message that reached no actor.
 *
 * @param target the id it was told to
 * @param reason why it was not processed
 */
public record DeadLetter(TbActorId target, TbActorMsg message, DeadLetterReason reason) {
}
