package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.dispatch.Dispatcher;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Ending an actor system: waiting for quiet, then stopping every actor, the dispatchers and the scheduler in time. */
final class SystemShutdown {

    private static final Logger log = LoggerFactory.getLogger(SystemShutdown.class);

    private final ActorRuntime runtime;
    private final CountDownLatch stopDone = new CountDownLatch(1);
    private volatile boolean stoppedCleanly;
    private volatile Map<TbActorId, Integer> turnsRunningAtStop = Map.of();

    SystemShutdown(ActorRuntime runtime) {
        this.runtime = runtime;
    }

    /** See {@link DefaultTbActorSystem#awaitQuiescence(Duration)}. */
    boolean awaitQuiescence(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (isQuiet()) {
                // confirm after a short pause: a message may have been in a thread's hands between two mailboxes
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                if (isQuiet()) {
                    return true;
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * Quiet means no work that can still run: every mailbox empty and no turn running or submitted. An actor that only
     * waits for an init retry or a restart backoff, with an empty mailbox, is quiet (its delayed turn is not work
     * anyone waits for); an actor being stopped is not, until it is destroyed (its turn may still be running).
     */
    private boolean isQuiet() {
        for (TbActorMailbox mailbox : runtime.actors.allNotDestroyed()) {
            if (mailbox.isStopRequested() || !(mailbox.isIdle() || Supervision.onlyWaitsForDelayedTurn(mailbox))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Gives up waiting for an actor (see {@link ActorStop#giveUp}); one whose turn may still run is reported at WARN by
     * id with its count of waiting messages.
     *
     * @param why what gave up, for the log line
     * @return the messages left to the running turn, or -1 when none may run and the actor was finished here
     */
    static int reportGivenUp(TbActorMailbox mailbox, String why) {
        int waiting = ActorStop.giveUp(mailbox);
        if (waiting >= 0) {
            log.warn("[{}] Turn still running when {}: {} message(s) waiting; they are told when the turn returns "
                    + "(a turn that never returns is the actor's own defect)", mailbox.getSelf(), why, waiting);
        }
        return waiting;
    }

    /** See {@link DefaultTbActorSystem#getTurnsRunningAtStop()}. */
    Map<TbActorId, Integer> turnsRunningAtStop() {
        return turnsRunningAtStop;
    }

    /** See {@link DefaultTbActorSystem#stop(Duration)}. */
    boolean stop(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        Dispatcher own = runtime.dispatchers.ofCurrentThread();
        if (own != null) {
            throw new IllegalStateException("The actor system's stop() was called from inside an actor's turn (dispatcher '"
                    + own.getName() + "', thread " + Thread.currentThread().getName() + "): it would wait for that very turn "
                    + "to end. Stop the system from a thread of your own, e.g. CompletableFuture.runAsync(system::stop)");
        }
        if (!runtime.beginStop()) {
            // another caller is stopping the system: wait for it (within our own timeout) and share its result
            try {
                return stopDone.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && stoppedCleanly;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<TbActorMailbox> all = runtime.actors.allNotDestroyed();
        for (TbActorMailbox mailbox : all) {
            if (mailbox.parent == null) {
                ActorStop.stop(mailbox, TbActorStopReason.STOPPED, null);
            }
        }
        for (TbActorMailbox mailbox : all) {
            ActorStop.stop(mailbox, TbActorStopReason.STOPPED, null);
        }
        boolean clean = runtime.actors.awaitNoLiveActors(deadline);
        if (!clean) {
            log.warn("Actor system stop: {} actor(s) not destroyed within {}; their threads are interrupted",
                    runtime.actors.liveCount(), timeout);
        }
        for (Dispatcher dispatcher : runtime.dispatchers.all()) {
            dispatcher.getExecutor().shutdown();
        }
        for (Dispatcher dispatcher : runtime.dispatchers.all()) {
            clean &= DispatcherRegistry.awaitTermination(dispatcher.getExecutor(), deadline);
        }
        runtime.scheduler.shutdownNow();
        // every actor not destroyed by now, those stopped before this stop began included
        Map<TbActorId, Integer> running = new LinkedHashMap<>();
        for (TbActorMailbox mailbox : runtime.actors.allNotDestroyed()) {
            int waiting = reportGivenUp(mailbox, "the actor system stop gave up");
            if (waiting >= 0) {
                running.put(mailbox.getSelf(), waiting);
                // the scheduler that would time them out is gone
                ActorTimers.timeAsksOutWithoutScheduler(mailbox);
            }
        }
        turnsRunningAtStop = Collections.unmodifiableMap(running);
        stoppedCleanly = clean;
        runtime.stopped();
        stopDone.countDown();
        log.info("Actor system stopped{}", clean ? "" : " (timed out, see warnings above)");
        return clean;
    }
}
