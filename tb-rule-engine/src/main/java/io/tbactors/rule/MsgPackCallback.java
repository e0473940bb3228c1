package io.tbactors.rule;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The callback shared by the messages made from one device request (one per reading): completes the request's
 * future once every one of them has ended, normally when all went through, exceptionally with the first failure
 * otherwise. Waiting for all, even after a failure, means a completed future never leaves work behind it.
 */
public final class MsgPackCallback implements TbMsgCallback {

    private final AtomicInteger remaining;
    private final AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
    private final CompletableFuture<Void> done;

    /**
     * @param messages how many messages share this callback, at least 1
     * @param done completed when all of them have ended
     */
    public MsgPackCallback(int messages, CompletableFuture<Void> done) {
        if (messages < 1) {
            throw new IllegalArgumentException("A pack has at least one message, got " + messages);
        }
        this.remaining = new AtomicInteger(messages);
        this.done = done;
    }

    @Override
    public void onSuccess() {
        ended();
    }

    @Override
    public void onFailure(RuntimeException failure) {
        firstFailure.compareAndSet(null, failure);
        ended();
    }

    private void ended() {
        if (remaining.decrementAndGet() == 0) {
            RuntimeException failure = firstFailure.get();
            if (failure == null) {
                done.complete(null);
            } else {
                done.completeExceptionally(failure);
            }
        }
    }
}
