package io.tbactors.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class EntityPartitionerTest {

    @Test
    void anEntityLandsOnThePartitionKafkasDefaultPartitionerPicksForItsKey() {
        for (int i = 0; i < 1000; i++) {
            UUID entityId = UUID.randomUUID();
            byte[] key = EntityPartitioner.key(entityId).getBytes(StandardCharsets.UTF_8);
            for (int partitions : new int[] {1, 6, 12, 100}) {
                assertThat(EntityPartitioner.partition(entityId, partitions))
                        .isEqualTo(BuiltInPartitioner.partitionForKey(key, partitions));
            }
        }
    }

    @Test
    void aPartitionCountBelowOneIsRefused() {
        UUID entityId = UUID.randomUUID();
        assertThatThrownBy(() -> EntityPartitioner.partition(entityId, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
