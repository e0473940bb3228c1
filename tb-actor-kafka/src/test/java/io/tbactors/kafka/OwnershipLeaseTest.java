package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class OwnershipLeaseTest {

    @Test
    void aLeaseIsHalfTheSessionTimeoutUnlessTheHeartbeatIntervalLeavesLess() {
        assertThat(OwnershipLease.forSession(45_000, 3_000).durationMillis()).isEqualTo(22_500);
        assertThat(OwnershipLease.forSession(6_000, 500).durationMillis()).isEqualTo(3_000);
        assertThat(OwnershipLease.forSession(10_000, 8_000).durationMillis()).isEqualTo(1_900);
    }

    @Test
    void aPulseOlderThanTheLeaseLapsesItAndTheNextPulseDoesNotRestoreItOnlyARenewalDoes() {
        OwnershipLease lease = new OwnershipLease(300);
        lease.renew();
        assertThat(lease.isValid()).isTrue();

        // no pulse: as in a process stopped for longer than the lease
        await().atMost(Duration.ofSeconds(10)).until(() -> !lease.isValid());
        lease.pulse();
        assertThat(lease.isValid()).as("a pulse after the gap does not make the old epochs current again").isFalse();

        lease.renew();
        assertThat(lease.isValid()).isTrue();
    }

    @Test
    void aRunningPulseKeepsTheLeaseValid() {
        OwnershipLease lease = new OwnershipLease(2_000);
        lease.start("test-pulse");
        try {
            long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            // checked throughout a span longer than the lease: the pulse keeps renewing what it notes
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
                assertThat(lease.isValid()).isTrue();
                return System.nanoTime() >= until;
            });
        } finally {
            lease.stop();
        }
    }
}
