package io.tbactors.kafka;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition of an entity: the one Kafka's default partitioner picks for a record keyed by the entity id's string
 * form (murmur2 of the key's UTF-8 bytes, made positive, modulo the partition count). Every node computes the same.
 */
public final class EntityPartitioner {

    private EntityPartitioner() {
    }

    /**
     * @return the record key written for that entity
     */
    public static String key(UUID entityId) {
        return entityId.toString();
    }

    /**
     * @param partitionCount the topic's partition count, positive
     * @return the entity's partition
     */
    public static int partition(UUID entityId, int partitionCount) {
        if (partitionCount <= 0) {
            throw new IllegalArgumentException("partitionCount must be positive, got " + partitionCount);
        }
        byte[] key = key(entityId).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitionCount;
    }
}
