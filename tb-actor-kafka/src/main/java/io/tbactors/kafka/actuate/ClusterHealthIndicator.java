package io.tbactors.kafka.actuate;

import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbClusterMemberState;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of this node's cluster membership, shown as the {@code actorsCluster} component: {@code UP} while it is an
 * active member of the group (owning any number of partitions), {@code UNKNOWN} while it joins, {@code DOWN} when
 * its last poll failed, {@code OUT_OF_SERVICE} once it leaves the group.
 */
public class ClusterHealthIndicator extends AbstractHealthIndicator {

    private final KafkaClusterMember member;

    /** @param member this node's membership */
    public ClusterHealthIndicator(KafkaClusterMember member) {
        super("Cluster membership health check failed");
        this.member = member;
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
                .withDetail("undecodableRecords", member.getUndecodableCount());
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
