package io.tbactors.core;

import io.tbactors.api.AbstractTbActor;
import io.tbactors.api.InitFailureStrategy;
import io.tbactors.api.ProcessFailureStrategy;
import io.tbactors.api.TbActorCtx;
import io.tbactors.api.TbActorException;
import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An actor that records everything the runtime does to it and fails the test if two of its callbacks ever run at
 * once (two turns of one actor). Behaviour is plugged in by overriding the {@code on*} hooks.
 */
class ProbeActor extends AbstractTbActor {

    /** Shared across the instances of one actor id (restarts create new instances). */
    static final class Record {
        final AtomicInteger inits = new AtomicInteger();
        final AtomicInteger destroys = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final List<TbActorMsg> processed = new CopyOnWriteArrayList<>();
        final List<TbActorStopReason> destroyedWith = new CopyOnWriteArrayList<>();
    }

    final Record record;
    private final AtomicBoolean inCallback = new AtomicBoolean();

    ProbeActor(Record record) {
        this.record = record;
    }

    private void enter() {
        if (!inCallback.compareAndSet(false, true)) {
            record.overlaps.incrementAndGet();
        }
    }

    private void exit() {
        inCallback.set(false);
    }

    @Override
    public final void init(TbActorCtx ctx) throws TbActorException {
        enter();
        try {
            super.init(ctx);
            int attempt = record.inits.incrementAndGet();
            onInit(ctx, attempt);
        } finally {
            exit();
        }
    }

    @Override
    public final boolean process(TbActorMsg msg) {
        enter();
        try {
            onProcess(msg);
            record.processed.add(msg);
            if (msg instanceof TestMsgs.Numbered numbered) {
                numbered.markProcessed();
            }
            return true;
        } finally {
            exit();
        }
    }

    @Override
    public final void destroy(TbActorStopReason stopReason, Throwable cause) {
        enter();
        try {
            record.destroys.incrementAndGet();
            record.destroyedWith.add(stopReason);
            onDestroy(stopReason);
        } finally {
            exit();
        }
    }

    void onInit(TbActorCtx ctx, int attempt) throws TbActorException {
    }

    void onProcess(TbActorMsg msg) {
    }

    void onDestroy(TbActorStopReason reason) {
    }

    @Override
    public InitFailureStrategy onInitFailure(int attempt, Throwable t) {
        return InitFailureStrategy.retryWithDelay(1);
    }

    @Override
    public ProcessFailureStrategy onProcessFailure(TbActorMsg msg, Throwable t) {
        return ProcessFailureStrategy.resume();
    }
}
