package io.tbactors.rule.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.TbMsgCallback;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingNodeResult#whenDone}: the action a node actor registers for its pack runs exactly once, after the
 * result is complete, whichever of the registration and the completion comes first. The races between them are
 * explored by {@link PendingNodeResultLincheckTest}.
 */
class PendingNodeResultTest {

    private static final Set<String> RELATIONS = Set.of(Relations.SUCCESS, Relations.FAILURE);

    static PendingNodeResult result() {
        return new PendingNodeResult("n", "probe", RELATIONS);
    }

    static TbMsg msg() {
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
}
