package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorNotRegisteredException;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorStoppedException;
import io.tbactors.api.TbStringActorId;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/** Request/reply: a request carries a reply-to reference whose first message completes the asker's future. */
final class Asks {

    private final ActorRuntime runtime;
    private final AtomicLong sequence = new AtomicLong();

    Asks(ActorRuntime runtime) {
        this.runtime = runtime;
    }

    /** See {@link DefaultTbActorSystem#ask(TbActorId, Function, Duration)}. */
    <R extends TbActorMsg> CompletableFuture<R> ask(TbActorId target, Function<TbActorRef, ? extends TbActorMsg> request,
                                                    Duration timeout) {
        Objects.requireNonNull(target, "target must not be null");
        Objects.requireNonNull(request, "request must not be null");
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("ask timeout must be positive, got " + timeout);
        }
        CompletableFuture<R> future = new CompletableFuture<>();
        TbActorMailbox mailbox = runtime.actors.get(target);
        if (mailbox == null) {
            future.completeExceptionally(!runtime.isRunning()
                    ? new TbActorStoppedException(target, TbActorStopReason.STOPPED, "The actor system is stopped")
                    : new TbActorNotRegisteredException(target, "Actor with id [" + target + "] is not registered!"));
            return future;
        }
        AskReplyRef<R> replyTo = new AskReplyRef<>(
                new TbStringActorId("ask-" + sequence.incrementAndGet() + "->" + target), target, future, timeout);
        TbActorMsg msg = Objects.requireNonNull(request.apply(replyTo), "request function returned null");
        if (!ActorTimers.addStopWatcher(mailbox, replyTo)) {
            future.completeExceptionally(new TbActorStoppedException(target, TbActorStopReason.STOPPED,
                    "Actor [" + target + "] stopped before the request was sent"));
            return future;
        }
        ScheduledFuture<?> timer;
        try {
            timer = runtime.scheduler.schedule(replyTo::timeOut, timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            // the system stopped since the lookup: nothing would ever time this ask out
            ActorTimers.removeStopWatcher(mailbox, replyTo);
            future.completeExceptionally(new TbActorStoppedException(target, TbActorStopReason.STOPPED, "The actor system is stopped"));
            return future;
        }
        future.whenComplete((reply, failure) -> {
            timer.cancel(false);
            ActorTimers.removeStopWatcher(mailbox, replyTo);
        });
        // the request carries the reply reference as its delivery: refused, dropped or drained, it fails the future
        mailbox.enqueue(msg, false, false, replyTo);
        return future;
    }
}
