package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import io.tbactors.core.observe.TbMessageFateObserver;

/**
 * Wraps the user's fate observer so that one that throws never breaks a tell or a turn: it is counted and logged.
 * Installed only when a test asks for an observer, so the lambda per call costs nothing in production.
 */
final class ContainedFateObserver implements TbMessageFateObserver {

    private final TbMessageFateObserver delegate;
    private final ActorRuntime runtime;

    ContainedFateObserver(TbMessageFateObserver delegate, ActorRuntime runtime) {
        this.delegate = delegate;
        this.runtime = runtime;
    }

    @Override
    public void onTold(TbActorId target, TbActorMsg msg) {
        contained("onTold", target, () -> delegate.onTold(target, msg));
    }

    @Override
    public void onProcessed(TbActorId target, TbActorMsg msg) {
        contained("onProcessed", target, () -> delegate.onProcessed(target, msg));
    }

    @Override
    public void onNotProcessed(TbActorId target, TbActorMsg msg, TbActorStopReason reason) {
        contained("onNotProcessed", target, () -> delegate.onNotProcessed(target, msg, reason));
    }

    @Override
    public void onHandedBack(TbActorId target, TbActorMsg msg) {
        contained("onHandedBack", target, () -> delegate.onHandedBack(target, msg));
    }

    @Override
    public void onWithdrawn(TbActorId target, TbActorMsg msg) {
        contained("onWithdrawn", target, () -> delegate.onWithdrawn(target, msg));
    }

    private void contained(String method, TbActorId target, Runnable call) {
        try {
            call.run();
        } catch (Throwable t) {
            runtime.callbackFailed("messageFateObserver." + method, target, t);
        }
    }

    @Override
    public String toString() {
        return "ContainedFateObserver{" + delegate + '}';
    }
}
