package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorRef;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.api.TbActorStoppedException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The reply-to reference of one {@code ask}: telling it completes the request's future. It is not registered in
 * the actor system, so nothing is left behind when the request completes or times out.
 */
final class AskReplyRef<R extends TbActorMsg> implements TbActorRef, MailboxExtras.StopWatcher, Delivery {

    private final TbActorId id;
    private final TbActorId target;
    private final CompletableFuture<R> future;
    private final Duration timeout;
    private final long deadline;

    AskReplyRef(TbActorId id, TbActorId target, CompletableFuture<R> future, Duration timeout) {
        this.id = id;
        this.target = target;
        this.future = future;
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    /** No reply came within the ask's timeout. */
    void timeOut() {
        future.completeExceptionally(new TimeoutException("No reply from [" + target + "] within " + timeout));
    }

    /**
     * The runtime's scheduler is gone (the system stop shut it down) while the target's turn still runs: the ask is
     * timed out on the JDK's own timer at its original deadline.
     */
    void timeOutWithoutScheduler() {
        if (!future.isDone()) {
            long remaining = Math.max(0, deadline - System.nanoTime());
            CompletableFuture.delayedExecutor(remaining, TimeUnit.NANOSECONDS).execute(this::timeOut);
        }
    }

    @Override
    public TbActorId getActorId() {
        return id;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void tell(TbActorMsg actorMsg) {
        if (!future.complete((R) actorMsg) && actorMsg != null) {
            // a second or late reply: nobody waits for it any more
            actorMsg.onTbActorStopped(TbActorStopReason.STOPPED);
        }
    }

    @Override
    public void tellWithHighPriority(TbActorMsg actorMsg) {
        tell(actorMsg);
    }

    @Override
    public void onTargetStopped(TbActorId target, TbActorStopReason reason) {
        future.completeExceptionally(new TbActorStoppedException(target, reason,
                "Actor [" + target + "] stopped (" + reason + ") before replying"));
    }

    /** The request itself was refused, dropped or drained: no reply can come. */
    @Override
    public void notDelivered(TbActorStopReason reason) {
        future.completeExceptionally(new TbActorStoppedException(target, reason,
                "The request to [" + target + "] was not processed (" + reason + ")"));
    }

    @Override
    public String toString() {
        return "AskReplyRef{" + id + '}';
    }
}
