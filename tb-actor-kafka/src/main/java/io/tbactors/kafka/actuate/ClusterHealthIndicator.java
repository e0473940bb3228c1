package io.tbactors.kafka.actuate;

import io.tbactors.kafka.ClusterConnectivity;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbClusterMemberState;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of this node's cluster membership, shown as the {@code actorsCluster} component: {@code DOWN} when the last
 * connectivity check found no broker or no coordinator for the group, or the last poll failed; otherwise {@code UP}
 * while it is an active member of the group (owning any number of partitions), {@code UNKNOWN} while it joins,
 * {@code OUT_OF_SERVICE} once it leaves the group. Lag is summed over the partitions whose lag is known; those whose
 * lag is not are listed.
 */
public class ClusterHealthIndicator extends AbstractHealthIndicator {

    private final KafkaClusterMember member;
    private final ClusterConnectivity connectivity;

    /**
     * @param member this node's membership
     * @param connectivity the checks of Kafka's reachability
     */
    public ClusterHealthIndicator(KafkaClusterMember member, ClusterConnectivity connectivity) {
        super("Cluster membership health check failed");
        this.member = member;
        this.connectivity = connectivity;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        TbClusterMemberState state = member.getState();
        Map<Integer, Long> lag = member.getLagByPartition();
        builder.withDetail("state", state)
                .withDetail("topic", member.getProperties().getTopic())
                .withDetail("groupId", member.getProperties().getGroupId())
                .withDetail("partitionCount", member.getPartitionCount())
                .withDetail("ownedPartitions", member.getOwnedPartitions())
                .withDetail("recordsInFlight", member.getRecordsInFlight())
                .withDetail("lag", lag.values().stream().filter(value -> value > 0).mapToLong(Long::longValue).sum())
                .withDetail("lagUnknownPartitions", lag.entrySet().stream().filter(e -> e.getValue() < 0).map(Map.Entry::getKey).toList())
                .withDetail("undecodableRecords", member.getUndecodableCount())
                .withDetail("deadLetteredRecords", member.getDeadLetteredCount())
                .withDetail("recentDeadLetters", member.getRecentDeadLetters())
                .withDetail("commitFailures", member.getCommitFailureCount());
        ClusterConnectivity.Status reachability = connectivity.getStatus();
        if (reachability != null) {
            builder.withDetail("broker", reachability.brokerReachable() ? "reachable" : "unreachable")
                    .withDetail("groupCoordinator", reachability.coordinatorReachable() ? "reachable" : "unreachable")
                    .withDetail("checkedAt", reachability.checkedAt().toString());
            if (!reachability.isReachable() && state != TbClusterMemberState.STOPPING && state != TbClusterMemberState.STOPPED) {
                builder.down().withDetail("error", reachability.problem());
                return;
            }
        }
        switch (state) {
            case ACTIVE -> builder.up();
            case FAILED -> {
                Throwable error = member.getLastError();
                builder.down().withDetail("error", error == null ? "unknown" : error.toString());
            }
            case STOPPING, STOPPED -> builder.outOfService();
            default -> builder.unknown();
        }
    }
}
