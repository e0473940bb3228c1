package io.tbactors.kafka;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one cluster member and its last dead letters, kept apart from the consumer loop that moves them;
 * {@link KafkaClusterMember}'s getters read them for the health component, the endpoint and the meters.
 */
final class ClusterMemberStats {

    /** Records polled. */
    final LongAdder consumed = new LongAdder();

    /** Records skipped because they could not be decoded. */
    final LongAdder undecodable = new LongAdder();

    /** Ownership changes: assignments, revocations, losses. */
    final LongAdder rebalances = new LongAdder();

    /** Records still in flight when their partition was given up after the bounded wait. */
    final LongAdder abandoned = new LongAdder();

    /** Offset commits that failed. */
    final LongAdder commitFailures = new LongAdder();

    /** Times the topic was found with more partitions than known. */
    final LongAdder partitionCountChanges = new LongAdder();

    /** Times the node gave its partitions up because it could not confirm its membership in time. */
    final LongAdder fenced = new LongAdder();

    /** Assigned partitions not taken because Kafka did not acknowledge their ownership markers, counted per attempt. */
    final LongAdder markersFailed = new LongAdder();

    /** Records written to the dead-letter topic. */
    final LongAdder deadLettered = new LongAdder();

    private final Map<DeadLetterPublisher.Reason, LongAdder> deadLetteredByReason = new EnumMap<>(DeadLetterPublisher.Reason.class);
    private final Deque<TbClusterDeadLetter> recentDeadLetters = new ArrayDeque<>();

    ClusterMemberStats() {
        for (DeadLetterPublisher.Reason reason : DeadLetterPublisher.Reason.values()) {
            deadLetteredByReason.put(reason, new LongAdder());
        }
    }

    /** Counts a record Kafka acknowledged on the dead-letter topic and keeps it among the last ones. */
    void deadLettered(TbClusterDeadLetter deadLetter) {
        deadLettered.increment();
        deadLetteredByReason.get(deadLetter.reason()).increment();
        synchronized (recentDeadLetters) {
            if (recentDeadLetters.size() == KafkaClusterMember.RECENT_DEAD_LETTERS) {
                recentDeadLetters.removeFirst();
            }
            recentDeadLetters.addLast(deadLetter);
        }
    }

    Map<DeadLetterPublisher.Reason, Long> deadLetteredByReason() {
        Map<DeadLetterPublisher.Reason, Long> counts = new EnumMap<>(DeadLetterPublisher.Reason.class);
        deadLetteredByReason.forEach((reason, count) -> counts.put(reason, count.sum()));
        return counts;
    }

    List<TbClusterDeadLetter> recentDeadLetters() {
        synchronized (recentDeadLetters) {
            return List.copyOf(recentDeadLetters);
        }
    }
}
