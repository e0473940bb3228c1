package io.tbactors.rule.node;

import static io.tbactors.rule.node.PendingNodeResultTest.msg;
import static io.tbactors.rule.node.PendingNodeResultTest.result;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.rule.TbMsg;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingNodeResult#whenDone} racing the result's completions, model-checked: Lincheck switches threads between
 * any two shared-memory accesses, so it reaches a completion between the registration's attempt and its fallback. The
 * action must run exactly once, and only after the result is complete.
 */
class PendingNodeResultLincheckTest {

    @Test
    void theActionRunsOnceWhateverTheInterleavingOfRegistrationAndCompletions() {
        new ModelCheckingOptions()
                .iterations(30)
                .invocationsPerIteration(500)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(0)
                .actorsAfter(0)
                .check(Model.class);
    }

    /** One result, its action registered at most once, completed (or failed, or cancelled) from other threads. */
    public static class Model {
        private final PendingNodeResult result = result();
        private final AtomicInteger runs = new AtomicInteger();
        private final AtomicBoolean registered = new AtomicBoolean();
        private final TbMsg msg = msg();

        @Operation
        public void register() {
            if (registered.compareAndSet(false, true)) {
                result.whenDone(() -> {
                    if (!result.isDone()) {
                        throw new IllegalStateException("the action ran before the result was complete");
                    }
                    runs.incrementAndGet();
                });
            }
        }

        @Operation
        public void succeed() {
            result.tellSuccess(msg);
        }

        @Operation
        public void fail() {
            result.tellFailure(msg, new IllegalStateException("failed"));
        }

        @Operation
        public void cancel() {
            result.cancel(false);
        }

        @Validate
        public void ranOnceIfRegisteredAndComplete() {
            int expected = registered.get() && result.isDone() ? 1 : 0;
            if (runs.get() != expected) {
                throw new IllegalStateException("the action ran " + runs.get() + " time(s), expected " + expected
                        + " (registered " + registered.get() + ", complete " + result.isDone() + ")");
            }
        }
    }
}
