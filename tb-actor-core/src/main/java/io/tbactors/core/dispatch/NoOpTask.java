package io.tbactors.core.dispatch;

import java.util.concurrent.ForkJoinTask;

/**
 * A task that does nothing, shared by every push: {@code exec()} returns false, so it never completes and can be
 * pushed again (and sit in several queues at once) without a new object each time.
 */
final class NoOpTask extends ForkJoinTask<Void> {

    static final NoOpTask INSTANCE = new NoOpTask();

    private static final long serialVersionUID = 1L;

    private NoOpTask() {
    }

    @Override
    public Void getRawResult() {
        return null;
    }

    @Override
    protected void setRawResult(Void value) {
        // no result
    }

    @Override
    protected boolean exec() {
        return false;
    }
}
