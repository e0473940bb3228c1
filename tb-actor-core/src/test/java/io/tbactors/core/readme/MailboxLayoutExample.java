package io.tbactors.core.readme;

import io.tbactors.core.DefaultTbActorSystem;
import io.tbactors.core.dispatch.DispatcherKind;

/** The mailbox-layout fragment of tb-actor-core's README. */
final class MailboxLayoutExample {

    private MailboxLayoutExample() {
    }

    /** Registers a dispatcher for a few busy actors, with padded mailboxes. */
    static void gatewayDispatcher(DefaultTbActorSystem system) {
        // example: padded-mailboxes
        system.createDispatcher("gateway", DispatcherKind.FORK_JOIN, 2);
        system.setPaddedMailboxes("gateway", true);   // for the actors created on it from now on
        // end example
    }
}
