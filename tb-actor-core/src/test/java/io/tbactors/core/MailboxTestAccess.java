package io.tbactors.core;

import io.tbactors.api.TbActorRef;
import io.tbactors.core.observe.ActorStats;

/** What tests read from an actor's mailbox that the runtime itself does not ask it for. */
final class MailboxTestAccess {

    private MailboxTestAccess() {
    }

    /** @return how many timers of the actor behind {@code ref} are live */
    static int liveTimers(TbActorRef ref) {
        return ActorTimers.liveTimers((TbActorMailbox) ref);
    }

    /** @return the statistics of the actor behind {@code ref}, as the system's views report them */
    static ActorStats stats(TbActorRef ref) {
        return SystemViews.statsOf((TbActorMailbox) ref);
    }
}
