package io.tbactors.kafka.example;

import io.tbactors.api.TbActorMsg;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the README's example actors store what devices send: a store fenced by token, as a database shared by the
 * nodes would be. Per partition it keeps the greatest fencing token it has written with, and refuses a write with a
 * lower one, in the same step as the write: in SQL, one transaction that runs {@code UPDATE partition_fence SET token
 * = :token WHERE partition = :partition AND token <= :token} and inserts the reading only when that updated a row.
 */
final class ReadingRepository {
    private final List<TbActorMsg> saved = new CopyOnWriteArrayList<>();
    private final Map<Integer, Long> newestTokens = new HashMap<>();

    /**
     * @param partition the partition of the payload's entity
     * @param fencingToken the fencing token of the ownership the payload is written in
     * @return whether it was stored: false when a write of the partition with a greater token came first
     */
    synchronized boolean save(int partition, long fencingToken, TbActorMsg payload) {
        if (fencingToken < newestTokens.getOrDefault(partition, Long.MIN_VALUE)) {
            return false;
        }
        newestTokens.put(partition, fencingToken);
        saved.add(payload);
        return true;
    }

    List<TbActorMsg> saved() {
        return saved;
    }
}
