package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PartitionTrackerTest {

    private final AtomicInteger nodeInFlight = new AtomicInteger();
    private final PartitionTracker tracker = new PartitionTracker(3, nodeInFlight);

    @Test
    void theCommitNeverPassesARecordThatHasNotCompleted() {
        int generation = tracker.assign();
        tracker.handed(10);
        tracker.handed(11);
        tracker.handed(12);
        assertThat(tracker.committable()).isEqualTo(10);

        tracker.completed(generation, 12);
        tracker.completed(generation, 11);
        assertThat(tracker.committable()).as("10 is still in flight").isEqualTo(10);

        tracker.completed(generation, 10);
        assertThat(tracker.committable()).isEqualTo(13);
        tracker.committedAt(13);
        assertThat(tracker.committable()).as("nothing new").isEqualTo(-1);
        assertThat(nodeInFlight).hasValue(0);
    }

    @Test
    void skippedRecordsMoveTheCommitWhenNothingIsInFlight() {
        tracker.assign();
        assertThat(tracker.committable()).isEqualTo(-1);
        tracker.skipped(4);
        assertThat(tracker.committable()).isEqualTo(5);
    }

    @Test
    void completionsOfAnEarlierAssignmentAreIgnored() {
        int first = tracker.assign();
        tracker.handed(1);
        tracker.release();
        assertThat(tracker.isCurrent(first)).isFalse();
        int second = tracker.assign();
        tracker.handed(1);
        tracker.completed(first, 1);
        assertThat(tracker.inFlight()).isEqualTo(1);
        tracker.completed(second, 1);
        assertThat(tracker.inFlight()).isZero();
        assertThat(nodeInFlight).hasValue(0);
    }

    @Test
    void anAssignmentsFencingTokenIsTheOneItWasGivenAndAnEarlierAssignmentsIsOlderThanAny() {
        int first = tracker.assign(7);
        assertThat(tracker.fencingToken(first)).isEqualTo(7);
        tracker.release();
        int second = tracker.assign(9);
        assertThat(tracker.fencingToken(second)).isEqualTo(9);
        assertThat(tracker.fencingToken(first)).as("an epoch of the assignment before").isEqualTo(-1);
    }

    @Test
    void localSendsStartOnlyOnceReadPastTheAssignmentAndThisNodesOwnKafkaSends() {
        tracker.assign();
        assertThat(tracker.route()).isEqualTo(PartitionTracker.Route.KAFKA);
        tracker.catchUpTo(5);
        assertThat(tracker.caughtUpAt(5)).as("a send through Kafka is not answered yet").isFalse();

        tracker.remoteAnswered(7);
        assertThat(tracker.caughtUpAt(7)).as("that send's record, at 7, is not read yet").isFalse();
        assertThat(tracker.caughtUpAt(8)).isTrue();
        assertThat(tracker.state()).isEqualTo(PartitionTracker.State.OWNED);
        assertThat(tracker.route()).isEqualTo(PartitionTracker.Route.LOCAL);
        tracker.releaseLocal();
    }

    /**
     * A sender's message went through Kafka while the partition was caught up to; the consumer has read it, but its
     * actor has not processed it yet (it waits behind its entity's earlier record). A local send of the same sender
     * would be told to the actor at once and overtake it, so local sends wait until it completed.
     */
    @Test
    void localSendsWaitUntilTheRecordsReadWhileCatchingUpHaveCompleted() {
        int generation = tracker.assign();
        tracker.catchUpTo(3);
        assertThat(tracker.route()).isEqualTo(PartitionTracker.Route.KAFKA);
        tracker.handed(2);
        tracker.remoteAnswered(4);
        tracker.handed(3);
        tracker.handed(4);
        tracker.completed(generation, 3);
        assertThat(tracker.caughtUpAt(5)).as("records 2 and 4 were read but are still with the actors").isFalse();
        tracker.completed(generation, 4);
        assertThat(tracker.caughtUpAt(5)).as("record 2 (before the assignment's end) is still with the actors").isFalse();
        tracker.completed(generation, 2);
        tracker.handed(5);
        assertThat(tracker.caughtUpAt(6)).as("record 5 is another node's send, read after everything this node waits for")
                .isTrue();
        assertThat(tracker.route()).isEqualTo(PartitionTracker.Route.LOCAL);
        tracker.releaseLocal();
    }

    @Test
    void aRevocationWaitsForTheLocalSendsAndRecordsInFlightUpToItsTimeout() throws Exception {
        int generation = tracker.assign();
        tracker.catchUpTo(0);
        tracker.caughtUpAt(0);
        assertThat(tracker.route()).isEqualTo(PartitionTracker.Route.LOCAL);
        tracker.handed(0);

        assertThat(tracker.beginRevoke(TimeUnit.MILLISECONDS.toNanos(20))).as("both still in flight").isFalse();
        assertThat(tracker.state()).isEqualTo(PartitionTracker.State.REVOKING);
        assertThat(tracker.isCurrent(generation)).as("records still finish while it is given up").isTrue();
        assertThat(tracker.route()).as("no local send while revoking").isEqualTo(PartitionTracker.Route.KAFKA);

        CompletableFuture<Boolean> revoked = CompletableFuture.supplyAsync(() -> {
            try {
                return tracker.beginRevoke(TimeUnit.SECONDS.toNanos(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        tracker.releaseLocal();
        tracker.completed(generation, 0);
        assertThat(revoked.get(10, TimeUnit.SECONDS)).isTrue();

        tracker.release();
        assertThat(tracker.isOwned()).isFalse();
        assertThat(tracker.isCurrent(generation)).isFalse();
    }
}
