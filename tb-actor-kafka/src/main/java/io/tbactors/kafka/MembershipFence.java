package io.tbactors.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * A cluster member's fencing: whether Kafka still confirms this node's membership, and what the node does when it
 * cannot tell. It gives the partitions up as lost when the process was paused past its lease or Kafka has answered
 * nothing for nearly a session, asks Kafka for a rejoin, and on that rejoin takes back what the group let it keep.
 * Everything here runs on the member's consumer thread.
 */
@Slf4j
final class MembershipFence {

    private final KafkaClusterMember member;
    private final OwnershipLease lease;
    private final ClusterMemberStats stats;
    private final long sessionTimeoutMillis;
    /** How long without Kafka's answer before the node fences itself, a heartbeat interval and a second within the session. */
    private final long silenceLimitMillis;
    /** Fenced, and waiting for Kafka to confirm the membership by a rejoin. */
    private boolean awaitingRejoin;
    /** When Kafka last answered: a heartbeat answered, a rejoin or a commit it accepted. */
    private long confirmedNanos = System.nanoTime();
    /** The consumer's count of heartbeats answered when last read. */
    private double heartbeatsAnswered = -1;

    /**
     * @param member whose partitions are given up and taken back
     * @param lease the member's lease, which a pause lets lapse
     * @param stats where fences are counted
     * @param sessionTimeoutMillis the consumer's session timeout
     * @param silenceLimitMillis how long without Kafka's answer before the node fences itself
     */
    MembershipFence(KafkaClusterMember member, OwnershipLease lease, ClusterMemberStats stats, long sessionTimeoutMillis,
                    long silenceLimitMillis) {
        this.member = member;
        this.lease = lease;
        this.stats = stats;
        this.sessionTimeoutMillis = sessionTimeoutMillis;
        this.silenceLimitMillis = silenceLimitMillis;
    }

    /** Kafka answered: a commit it accepted. */
    void confirmed() {
        confirmedNanos = System.nanoTime();
    }

    /** Kafka confirmed the membership by a rejoin; a lease lapsed before it leaves nothing of before owned. */
    void rejoined() {
        if (!lease.isValid()) {
            // paused before this rejoin: what was owned before is stale, the rejoin itself confirms the membership
            member.revoke(member.getOwnedPartitions(), false);
            lease.renew();
        }
        awaitingRejoin = false;
        confirmed();
    }

    /**
     * Fencing, when the process was paused: it sent no heartbeat meanwhile, so the group may have handed its
     * partitions to other nodes, and what the consumer returns now may have been fetched with a lost membership.
     */
    void fenceIfPaused() {
        if (!lease.isValid()) {
            fence("This process was paused for half the session timeout or more (" + lease.durationMillis() + " ms)");
        }
    }

    /**
     * Fencing, when the coordinator cannot be reached: a consumer cut off from Kafka keeps its assignment, and polls
     * nothing, while the group gives its partitions to other nodes once the session timeout has passed. What counts is
     * Kafka's answer, never a request sent (a heartbeat "sent" to a broker that is gone counts in the consumer's
     * {@code last-heartbeat-seconds-ago}): heartbeats answered (the consumer's {@code heartbeat-total}, recorded on each
     * response), a rejoin, a commit Kafka accepted. With none for the session timeout less a heartbeat interval and a
     * second, the node fences itself.
     */
    void fenceIfSilent() {
        double answered = heartbeatsAnswered();
        if (answered < 0) {
            return;
        }
        if (answered > heartbeatsAnswered) {
            heartbeatsAnswered = answered;
            confirmedNanos = System.nanoTime();
        }
        long silentMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - confirmedNanos);
        if (silentMillis >= silenceLimitMillis) {
            fence("Kafka has answered no heartbeat, commit or rejoin of group '" + member.getProperties().getGroupId() + "' for "
                    + silentMillis + " ms (session timeout " + sessionTimeoutMillis + " ms)");
        }
    }

    /**
     * Gives the partitions up as lost (no commit: the records in flight are the next owner's; their epochs turn stale)
     * and asks Kafka to confirm the membership by a rejoin. Only that rejoin gives partitions back, as
     * {@code onPartitionsAssigned}: never a local timer or a metric, and never the generation the consumer held before.
     */
    private void fence(String why) {
        Set<Integer> owned = member.getOwnedPartitions();
        if (!owned.isEmpty()) {
            stats.fenced.increment();
            log.warn("[{}] {}: partitions {} are given up until Kafka confirms the membership by a rejoin", member.node(), why,
                    owned);
            member.revoke(owned, false);
        }
        // every epoch of before is stale now (its partition released): new ones may start once Kafka confirms
        lease.renew();
        requestRejoin("membership unconfirmed: " + why);
    }

    private void requestRejoin(String why) {
        Consumer<String, byte[]> consumer = member.consumer();
        if (!awaitingRejoin && !consumer.assignment().isEmpty()) {
            awaitingRejoin = true;
            consumer.enforceRebalance(why);
        }
    }

    /**
     * After a rejoin, which is Kafka's confirmation of the membership, every partition of the assignment is this
     * node's. The cooperative assignor hands {@code onPartitionsAssigned} only the partitions that are new to the
     * consumer; those it kept through a fence are taken again here, and read again from the last commit (what was
     * polled while fenced was skipped).
     */
    List<Integer> keptThroughFence(Collection<TopicPartition> added) {
        List<TopicPartition> kept = new ArrayList<>();
        for (TopicPartition tp : member.consumer().assignment()) {
            PartitionTracker tracker = member.tracker(tp.partition());
            if (tp.topic().equals(member.getProperties().getTopic()) && tracker != null && !tracker.isOwned() && !added.contains(tp)) {
                kept.add(tp);
            }
        }
        if (kept.isEmpty()) {
            return List.of();
        }
        member.seekToCommitted(kept);
        List<Integer> partitions = kept.stream().map(TopicPartition::partition).sorted().toList();
        log.warn("[{}] Membership of group '{}' confirmed by a rejoin: partitions {}, kept through the fence, are owned again and "
                + "read again from the last commit", member.node(), member.getProperties().getGroupId(), partitions);
        return partitions;
    }

    /** @return the heartbeats the coordinator has answered since the consumer started, or -1 when not known */
    private double heartbeatsAnswered() {
        try {
            for (Map.Entry<MetricName, ? extends Metric> metric : member.consumer().metrics().entrySet()) {
                if ("heartbeat-total".equals(metric.getKey().name()) && metric.getKey().group().endsWith("coordinator-metrics")
                        && metric.getValue().metricValue() instanceof Number value) {
                    return value.doubleValue();
                }
            }
        } catch (RuntimeException e) {
            log.debug("[{}] Heartbeat metric not readable: {}", member.node(), e.toString());
        }
        return -1;
    }
}
