package io.tbactors.core;

import io.tbactors.api.TbActorStopReason;

/**
 * Stopping an actor: the request (from any thread, once), the destroy (by the holder of the turn, once), and the
 * drain that tells every message left in the queues why it will never be processed.
 */
final class ActorStop {

    private ActorStop() {
    }

    /**
     * Requests the actor to stop: no message is processed after this, the actor is destroyed on its dispatcher,
     * and its children are stopped too.
     *
     * @return whether this call made the request (false when it was already stopping)
     */
    static boolean stop(TbActorMailbox mailbox, TbActorStopReason reason, Throwable cause) {
        if (!mailbox.claimStopReason(reason)) {
            return false;
        }
        if (cause != null) {
            mailbox.extras().stopCause = cause;
        }
        // before STOP_REQUESTED, so that the destroy (which forgets it) cannot come first
        mailbox.runtime.actors.stopRequested(mailbox);
        if (mailbox.creator() != null) {
            // the actor may restart: the request waits for a creator call in progress, so none begins after it
            synchronized (mailbox.extras()) {
                mailbox.becomeStopping();
            }
        } else {
            mailbox.becomeStopping();
        }
        mailbox.runtime.actors.unregister(mailbox);
        for (TbActorMailbox child : ActorChildren.list(mailbox)) {
            stop(child, TbActorStopReason.STOPPED, null);
        }
        Supervision.expediteDelayedTurn(mailbox);
        mailbox.wakeUp();
        return true;
    }

    /** The creator threw: the actor never existed; tell what was queued to the placeholder. */
    static void failCreation(TbActorMailbox mailbox, Throwable cause) {
        mailbox.claimStopReason(TbActorStopReason.INIT_FAILED);
        mailbox.extras().stopCause = cause;
        mailbox.becomeStopping();
        finishDestroy(mailbox, false);
    }

    /** Called by the holder of the turn: destroys the actor and keeps the turn for good, so none is scheduled again. */
    static void destroyAndRelease(TbActorMailbox mailbox) {
        finishDestroy(mailbox, true);
    }

    /** Called by the holder of the turn; the first call destroys, any later one does nothing. */
    private static void finishDestroy(TbActorMailbox mailbox, boolean callDestroy) {
        if (!mailbox.becomeDestroyed()) {
            return;
        }
        TbActorStopReason reason = mailbox.currentStopReason();
        MailboxExtras e = mailbox.extrasIfAny();
        // like ThingsBoard, every created instance is destroyed once, even one stopped before its init ran; not again
        // when its failed init (or update) destroyed it already and no re-init ran since
        if (callDestroy && mailbox.actor != null) {
            Supervision.destroyActor(mailbox, reason, e == null ? null : e.stopCause);
        }
        if (e != null) {
            ActorTimers.forgetScheduled(mailbox);
            ActorTimers.notifyWatchers(mailbox, e, reason);
        }
        drainQueues(mailbox, reason);
        mailbox.runtime.actors.onDestroyed(mailbox, reason, mailbox.isAttached());
    }

    /** Tells every queued message why it will not be processed; any thread may drain once the actor is destroyed. */
    static void drainQueues(TbActorMailbox mailbox, TbActorStopReason reason) {
        mailbox.drain(element -> mailbox.notProcessedElement(element, reason));
    }

    /**
     * A system stop (or a dispatcher's destroy) gave up waiting for this actor. If its executor has ended, no turn runs
     * or ever will: the caller finishes the actor in the turn's place (its {@code destroy} is not called, its turn never
     * came), tells what is queued and fails its pending asks. Otherwise its turn may still be running, and nothing is
     * taken from under it: the turn tells what is queued when it returns and finds the stop.
     *
     * @return the messages left to the running turn, or -1 when the actor was finished here
     */
    static int giveUp(TbActorMailbox mailbox) {
        if (mailbox.dispatcher().getExecutor().isTerminated()) {
            finishDestroy(mailbox, false);
            return -1;
        }
        return mailbox.queued();
    }
}
