package io.tbactors.core;

import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActor;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorUpdateException;
import io.tbactors.api.TbActorUpdateMsg;
import io.tbactors.core.observe.ActorFailure;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens when an actor's code fails: init and its retries, the {@code INIT_FAILED} state and the update that
 * leaves it, process failures (resume, stop or restart with a backoff), and the delayed turns that retries and
 * restarts wait in. Everything here runs in the turn, by the holder of the turn, unless it says otherwise.
 */
final class Supervision {

    private static final Logger log = LoggerFactory.getLogger(Supervision.class);

    private Supervision() {
    }

    /** @return true when the actor is ready and the turn goes on; false when the turn was handed elsewhere */
    static boolean initActor(TbActorMailbox mailbox) {
        // an instance destroyed by its failed init is destroyed again only once this init ran on it
        mailbox.beginInit();
        try {
            mailbox.actor.init(mailbox);
            mailbox.becomeInitialized();
            return true;
        } catch (Throwable t) {
            onInitFailure(mailbox, t);
            return false;
        }
    }

    private static void onInitFailure(TbActorMailbox mailbox, Throwable t) {
        // timers and the idle timeout of the failed attempt do not outlive it
        ActorTimers.forgetScheduled(mailbox);
        int attempt = ++mailbox.extras().initFailures;
        ActorRuntime runtime = mailbox.runtime;
        if (runtime.listener != null) {
            runtime.listener.onInitFailure(mailbox.getSelf(), mailbox.dispatcher().getName(), mailbox.actorType(), attempt, t);
        }
        int maxAttempts = runtime.maxInitAttempts;
        InitFailureStrategy strategy;
        if (maxAttempts > 0 && attempt >= maxAttempts) {
            strategy = InitFailureStrategy.stop();
        } else {
            try {
                strategy = Objects.requireNonNullElse(mailbox.actor.onInitFailure(attempt, t), InitFailureStrategy.stop());
            } catch (Throwable decisionFailure) {
                runtime.callbackFailed("onInitFailure", mailbox.getSelf(), decisionFailure);
                strategy = InitFailureStrategy.stop();
            }
        }
        String attemptText = "attempt " + attempt + " of at most " + (maxAttempts > 0 ? String.valueOf(maxAttempts) : "unlimited");
        if (strategy.isStop()) {
            runtime.failures.report(mailbox, ActorFailure.Phase.INIT, ActorFailure.Outcome.GAVE_UP, attemptText, t);
            initFailed(mailbox, t);
            if (mailbox.drainWhileInitFailed()) {
                mailbox.release();
            } else {
                mailbox.submitOwnedTurn();
            }
        } else if (strategy.getRetryDelay() == 0) {
            runtime.failures.report(mailbox, ActorFailure.Phase.INIT, ActorFailure.Outcome.RETRYING, attemptText + ", retrying now", t);
            mailbox.submitOwnedTurn();
        } else {
            runtime.failures.report(mailbox, ActorFailure.Phase.INIT, ActorFailure.Outcome.RETRYING,
                    attemptText + ", retrying in " + strategy.getRetryDelay() + " ms", t);
            scheduleOwnedTurn(mailbox, TimeUnit.MILLISECONDS.toNanos(strategy.getRetryDelay()));
        }
    }

    /**
     * Init gave up, or an update failed: as in ThingsBoard the actor is destroyed with {@code INIT_FAILED} but stays
     * registered; messages are told {@code INIT_FAILED} until a {@link TbActorUpdateMsg} initialises it again.
     */
    private static void initFailed(TbActorMailbox mailbox, Throwable cause) {
        MailboxExtras e = mailbox.extras();
        e.stopCause = cause;
        e.initFailures = 0;
        mailbox.becomeInitFailed();
        destroyActor(mailbox, TbActorStopReason.INIT_FAILED, cause);
        ActorTimers.forgetScheduled(mailbox);
        ActorTimers.notifyWatchers(mailbox, e, TbActorStopReason.INIT_FAILED);
    }

    /** Destroys the current instance, unless it was destroyed already and init did not run on it since. */
    static void destroyActor(TbActorMailbox mailbox, TbActorStopReason reason, Throwable cause) {
        if (!mailbox.claimInstanceDestroy()) {
            return;
        }
        try {
            mailbox.actor.destroy(reason, cause);
        } catch (Throwable t) {
            mailbox.runtime.callbackFailed("destroy", mailbox.getSelf(), t);
        }
    }

    /** @return the restart backoff when the actor was restarted, otherwise -1 */
    static long onProcessFailure(TbActorMailbox mailbox, TbActorMsg msg, Throwable t) {
        String msgType = msg.getClass().getSimpleName();
        FailureReports failures = mailbox.runtime.failures;
        if (t instanceof TbActorUpdateException) {
            failures.report(mailbox, ActorFailure.Phase.PROCESS, ActorFailure.Outcome.GAVE_UP, "update " + msgType, t);
            initFailed(mailbox, t.getCause() != null ? t.getCause() : t);
            return -1;
        }
        ProcessFailureStrategy strategy;
        try {
            strategy = mailbox.actor.onProcessFailure(msg, t);
        } catch (Throwable decisionFailure) {
            mailbox.runtime.callbackFailed("onProcessFailure", mailbox.getSelf(), decisionFailure);
            strategy = ProcessFailureStrategy.stop();
        }
        if (strategy != null && strategy.isStop()) {
            failures.report(mailbox, ActorFailure.Phase.PROCESS, ActorFailure.Outcome.STOPPED, msgType, t);
            ActorStop.stop(mailbox, TbActorStopReason.STOPPED, t);
        } else if (strategy != null && strategy.isRestart()) {
            return restart(mailbox, msgType, t);
        } else {
            failures.report(mailbox, ActorFailure.Phase.PROCESS, ActorFailure.Outcome.RESUMED, msgType, t);
        }
        return -1;
    }

    /**
     * Replaces the actor by a fresh instance from its creator, keeping the mailbox, unless it restarted too often
     * within the window; then it is stopped. The new instance is initialised in a later turn, after a backoff that
     * doubles with each restart in the window. The old instance's timers are cancelled with it.
     *
     * @return the backoff before the new instance's init, or -1 when the actor was stopped instead
     */
    private static long restart(TbActorMailbox mailbox, String msgType, Throwable cause) {
        MailboxExtras e = mailbox.extras();
        TbActorSystemSettings settings = mailbox.runtime.settings;
        long now = System.nanoTime();
        if (e.restartsInWindow == 0 || now - e.restartWindowStart > settings.getRestartWindow().toNanos()) {
            e.restartWindowStart = now;
            e.restartsInWindow = 0;
        }
        int maxRestarts = settings.getMaxRestarts();
        if (e.restartsInWindow >= maxRestarts) {
            mailbox.runtime.failures.report(mailbox, ActorFailure.Phase.PROCESS, ActorFailure.Outcome.STOPPED,
                    msgType + ", after " + maxRestarts + " restart(s) within " + settings.getRestartWindow(), cause);
            ActorStop.stop(mailbox, TbActorStopReason.STOPPED, cause);
            return -1;
        }
        if (mailbox.isStopRequested()) {
            // stopping anyway: the turn destroys this instance with the stop's reason, no fresh one is made
            return -1;
        }
        e.restartsInWindow++;
        mailbox.runtime.failures.report(mailbox, ActorFailure.Phase.PROCESS, ActorFailure.Outcome.RESTARTED, msgType + ", restart "
                + e.restartsInWindow + " of at most " + maxRestarts + " within " + settings.getRestartWindow(), cause);
        destroyActor(mailbox, TbActorStopReason.RESTARTED, cause);
        ActorTimers.forgetScheduled(mailbox);
        mailbox.becomeUninitialized();
        TbActor fresh;
        Throwable creatorFailure = null;
        // a stop sets STOP_REQUESTED under this lock: it either lands before the check or waits for the creator
        synchronized (e) {
            if (mailbox.isStopRequested()) {
                // stopped during the destroy: no new instance (its id may already belong to another actor), and the
                // old one was destroyed already, with RESTARTED as its last reason
                mailbox.dropActor();
                return -1;
            }
            try {
                fresh = Objects.requireNonNull(e.creator.createActor(), "creator.createActor() returned null");
            } catch (Throwable t) {
                fresh = null;
                creatorFailure = t;
            }
        }
        if (fresh == null) {
            log.warn("[{}] Creator failed during restart; stopping the actor", mailbox.getSelf(), creatorFailure);
            mailbox.dropActor();
            ActorStop.stop(mailbox, TbActorStopReason.INIT_FAILED, creatorFailure);
            return -1;
        }
        mailbox.attachActor(fresh, e.creator);
        e.initFailures = 0;
        long backoff = settings.getRestartBackoff().toNanos();
        mailbox.runtime.actorRestarted(mailbox);
        return backoff << Math.min(20, e.restartsInWindow - 1);
    }

    /** Runs the next turn after a delay, keeping the turn meanwhile; a stop claims the wait and runs it now. */
    static void scheduleOwnedTurn(TbActorMailbox mailbox, long delayNanos) {
        if (delayNanos <= 0) {
            mailbox.submitOwnedTurn();
            return;
        }
        DelayedTurn turn = new DelayedTurn(mailbox);
        mailbox.extras().delayedTurn = turn;
        try {
            turn.bind(mailbox.runtime.scheduler.schedule(turn, delayNanos, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException e) {
            if (turn.claim()) {
                mailbox.submitOwnedTurn();
            }
            return;
        }
        if (mailbox.isStopRequested()) {
            expediteDelayedTurn(mailbox);
        }
    }

    /** @return whether the actor's turn waits in a delayed turn (init retry, restart backoff) and no message waits */
    static boolean onlyWaitsForDelayedTurn(TbActorMailbox mailbox) {
        MailboxExtras e = mailbox.extrasIfAny();
        DelayedTurn turn = e == null ? null : e.delayedTurn;
        return turn != null && !turn.get() && !mailbox.hasMessages();
    }

    /** A stop does not wait out an init retry or restart backoff: whoever claims the delayed turn submits it. */
    static void expediteDelayedTurn(TbActorMailbox mailbox) {
        MailboxExtras e = mailbox.extrasIfAny();
        DelayedTurn turn = e == null ? null : e.delayedTurn;
        if (turn != null && turn.claimEarly()) {
            mailbox.submitOwnedTurn();
        }
    }
}
