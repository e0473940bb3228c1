package io.tbactors.kafka.it;

import io.tbactors.api.TbActorId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** The readings every node of a test has processed, shared by the nodes of one JVM, in processing order. */
public final class ReadingStore {

    /**
     * @param node the node that processed it
     * @param seq the reading's sequence number
     */
    public record Processed(String node, int seq) {
    }

    private final Map<UUID, List<Processed>> byDevice = new ConcurrentHashMap<>();
    private final Map<UUID, AtomicReference<String>> processingNow = new ConcurrentHashMap<>();
    private final Map<String, Set<TbActorId>> stoppedByNode = new ConcurrentHashMap<>();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final Map<UUID, List<String>> attempts = new ConcurrentHashMap<>();

    /**
     * Stores a reading; counts an overlap when another node is processing a reading of the same device meanwhile.
     *
     * @param node the processing node
     * @param device the device
     * @param seq the reading
     */
    public void store(String node, UUID device, int seq) {
        AtomicReference<String> current = processingNow.computeIfAbsent(device, d -> new AtomicReference<>());
        if (!current.compareAndSet(null, node)) {
            overlaps.incrementAndGet();
        }
        List<Processed> readings = byDevice.computeIfAbsent(device, d -> Collections.synchronizedList(new ArrayList<>()));
        readings.add(new Processed(node, seq));
        current.compareAndSet(node, null);
    }

    /**
     * Notes one attempt at a reading, in the order the device's actor saw them.
     *
     * @param device the device
     * @param seq the reading
     * @param outcome what the actor did with it, such as {@code stored} or {@code failed}
     */
    public void attempted(UUID device, int seq, String outcome) {
        attempts.computeIfAbsent(device, d -> Collections.synchronizedList(new ArrayList<>())).add(seq + ":" + outcome);
    }

    /**
     * @param device a device
     * @return the attempts its actor saw, as {@code seq:outcome}, in order, a copy
     */
    public List<String> attempts(UUID device) {
        return copy(attempts.get(device));
    }

    /**
     * @param node the node whose root stopped actors
     * @param actors the actors it stopped on a partition change
     */
    public void stopped(String node, List<TbActorId> actors) {
        stoppedByNode.computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet()).addAll(actors);
    }

    /**
     * @param device a device
     * @return its readings in processing order, a copy
     */
    public List<Processed> readings(UUID device) {
        return copy(byDevice.get(device));
    }

    private static <T> List<T> copy(List<T> synchronizedList) {
        if (synchronizedList == null) {
            return List.of();
        }
        synchronized (synchronizedList) {
            return new ArrayList<>(synchronizedList);
        }
    }

    /** @return the number of readings stored, duplicates included */
    public int size() {
        return byDevice.values().stream().mapToInt(List::size).sum();
    }

    /**
     * @param node a node
     * @return the actors its root stopped on partition changes
     */
    public Set<TbActorId> stoppedOn(String node) {
        return stoppedByNode.getOrDefault(node, Set.of());
    }

    /** @return times two nodes processed a reading of the same device at once */
    public int overlaps() {
        return overlaps.get();
    }
}
