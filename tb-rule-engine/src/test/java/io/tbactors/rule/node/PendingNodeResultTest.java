package io.tbactors.rule.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingNodeResult#whenDone}: the action a node actor registers for its pack runs exactly once, after the
 * result is complete, whichever of the registration and the completion comes first. Lincheck switches threads between
 * any two shared-memory accesses, so it reaches a completion between the registration's attempt and its fallback.
 */
class PendingNodeResultTest {

    private static final Set<String> RELATIONS = Set.of(Relations.SUCCESS, Relations.FAILURE);

    private static PendingNodeResult result() {
        return new PendingNodeResult("n", "probe", RELATIONS);
    }

    private static TbMsg msg() {
        return TbMsg.of("T", UUID.randomUUID(), Map.of(), Map.of(), TbMsgCallback.NONE);
    }

    @Test
    void theActionRunsWhenTheResultCompletesOnTheCompletingThread() {
        PendingNodeResult result = result();
        AtomicInteger runs = new AtomicInteger();
        result.whenDone(runs::incrementAndGet);
        assertThat(runs).hasValue(0);

        result.tellSuccess(msg());

        assertThat(runs).hasValue(1);
        result.tellFailure(msg(), new IllegalStateException("a second call is ignored"));
        assertThat(runs).hasValue(1);
    }

    @Test
    void theActionRunsAtOnceOnAResultAlreadyComplete() {
        PendingNodeResult result = result();
        result.tellFailure(msg(), new IllegalStateException("failed"));
        AtomicInteger runs = new AtomicInteger();

        result.whenDone(runs::incrementAndGet);

        assertThat(runs).hasValue(1);
    }

    @Test
    void aCancelledResultRunsItsActionToo() {
        PendingNodeResult result = result();
        AtomicInteger runs = new AtomicInteger();
        result.whenDone(runs::incrementAndGet);

        result.cancel(false);

        assertThat(runs).hasValue(1);
    }

    @Test
    void aSecondActionOnAPendingResultIsRefused() {
        PendingNodeResult result = result();
        result.whenDone(() -> { });

        assertThatThrownBy(() -> result.whenDone(() -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("one action only");
    }

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
