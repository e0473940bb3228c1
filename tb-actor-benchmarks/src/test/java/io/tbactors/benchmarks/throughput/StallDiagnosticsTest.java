package io.tbactors.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.benchmarks.support.Completion;
import io.tbactors.benchmarks.support.ThreadStates;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the message of a round that did not finish says: where the round stopped, and what every thread was doing. */
class StallDiagnosticsTest {

    @Test
    void anUnfinishedRoundNamesTheActorsPartWayThroughItWithTheirMailboxesAndTheDispatcher() {
        Completion completion = new Completion();
        TbThroughputTarget target = new TbThroughputTarget(Shape.parse("3x5"), completion);
        try {
            completion.arm(3);
            for (int i = 0; i < 3; i++) {
                target.tell(1);
            }
            target.tell(2);
            assertThat(target.awaitQuiescence(Duration.ofSeconds(10))).isTrue();

            String diagnostics = target.diagnostics();

            assertThat(diagnostics)
                    .contains("counter-1 received 3 of 5, ActorStats[id=counter-1")
                    .contains("counter-2 received 1 of 5")
                    .doesNotContain("counter-0 received")
                    .contains("DispatcherStats[name=bench");
        } finally {
            target.close();
        }
    }

    @Test
    void aRoundWhoseActorsAllFinishedOrNeverStartedSaysNoneIsPartWay() {
        Completion completion = new Completion();
        TbThroughputTarget target = new TbThroughputTarget(Shape.parse("2x2"), completion);
        try {
            completion.arm(2);
            target.tell(0);
            target.tell(0);
            assertThat(target.awaitQuiescence(Duration.ofSeconds(10))).isTrue();

            assertThat(target.diagnostics()).endsWith("actors part way through the round: none");
        } finally {
            target.close();
        }
    }

    @Test
    void theThreadStatesGiveEachThreadItsStateAndTheTopOfItsStack() {
        String dump = ThreadStates.dump();

        assertThat(dump).startsWith("threads:")
                .contains("\"" + Thread.currentThread().getName() + "\" RUNNABLE")
                .contains(ThreadStates.class.getName() + ".dump(");
    }
}
