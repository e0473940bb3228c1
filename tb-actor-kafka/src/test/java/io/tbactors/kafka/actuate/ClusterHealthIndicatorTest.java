package io.tbactors.kafka.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.tbactors.kafka.ClusterConnectivity;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.TbClusterMemberState;
import io.tbactors.kafka.TbClusterProperties;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class ClusterHealthIndicatorTest {

    private final KafkaClusterMember member = mock(KafkaClusterMember.class);
    private final ClusterConnectivity connectivity = mock(ClusterConnectivity.class);

    private Health healthIn(TbClusterMemberState state) {
        when(member.getState()).thenReturn(state);
        when(member.getProperties()).thenReturn(new TbClusterProperties());
        when(member.getOwnedPartitions()).thenReturn(Set.of(1, 4));
        when(member.getLagByPartition()).thenReturn(Map.of(1, 3L, 4, -1L));
        when(member.getPartitionCount()).thenReturn(6);
        return new ClusterHealthIndicator(member, connectivity).health();
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"STARTING, UNKNOWN", "JOINING, UNKNOWN", "ACTIVE, UP", "STOPPING, OUT_OF_SERVICE", "STOPPED, OUT_OF_SERVICE"})
    void theStatusFollowsTheMembersState(TbClusterMemberState state, String status) {
        Health health = healthIn(state);
        assertThat(health.getStatus()).isEqualTo(new Status(status));
        assertThat(health.getDetails()).containsEntry("state", state).containsEntry("ownedPartitions", Set.of(1, 4))
                .containsEntry("partitionCount", 6).containsEntry("lag", 3L).containsEntry("topic", "tb-actors.entities")
                .as("a lag not known is not counted as 0 but named").containsEntry("lagUnknownPartitions", List.of(4));
    }

    @ParameterizedTest(name = "broker reachable {0}, coordinator reachable {1}")
    @CsvSource({"false, false", "true, false"})
    void anActiveMemberThatCannotReachKafkaIsDown(boolean broker, boolean coordinator) {
        when(connectivity.getStatus()).thenReturn(new ClusterConnectivity.Status(broker, coordinator, "no answer", Instant.now()));
        Health health = healthIn(TbClusterMemberState.ACTIVE);
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("error", "no answer")
                .containsEntry("broker", broker ? "reachable" : "unreachable").containsEntry("groupCoordinator", "unreachable");
    }

    @Test
    void aReachableKafkaLeavesTheMembersStatus() {
        when(connectivity.getStatus()).thenReturn(new ClusterConnectivity.Status(true, true, null, Instant.now()));
        Health health = healthIn(TbClusterMemberState.ACTIVE);
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("broker", "reachable").containsEntry("groupCoordinator", "reachable");
    }

    @Test
    void aFailedPollIsDownWithItsError() {
        when(member.getLastError()).thenReturn(new IllegalStateException("broker unreachable"));
        Health health = healthIn(TbClusterMemberState.FAILED);
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("error").toString()).contains("broker unreachable");
    }
}
