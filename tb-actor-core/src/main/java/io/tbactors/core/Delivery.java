package io.tbactors.core;

import io.tbactors.api.TbActorStopReason;

/**
 * What travels with a queued message besides the message itself, for the few senders that must know more than
 * {@code onTbActorStopped} tells: a periodic timer withdraws its ticks when cancelled, an ask fails its future when
 * its request is dropped, refused or drained.
 */
interface Delivery {

    /** @return whether the message is still to be processed; checked by the turn just before {@code process} */
    default boolean stillWanted() {
        return true;
    }

    /**
     * The message will never be processed; called once, after the message's own {@code onTbActorStopped}.
     *
     * @param reason why
     */
    default void notDelivered(TbActorStopReason reason) {
    }
}
