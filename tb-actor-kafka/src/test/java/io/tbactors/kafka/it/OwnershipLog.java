package io.tbactors.kafka.it;

import io.tbactors.kafka.KafkaClusterMember;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Each change of the partitions a node owns, with the time it was seen, appended to a file as
 * {@code millis,p p p}: a node in another process writes it, the test reads it.
 */
final class OwnershipLog {

    /**
     * One change.
     *
     * @param millis when the node's owned partitions became these (just after, by its clock)
     * @param owned the partitions it owned from then on
     */
    record Change(long millis, Set<Integer> owned) {
    }

    /**
     * One partition owned by one node for a while.
     *
     * @param from when the node took it
     * @param until when it gave it up, or {@link Long#MAX_VALUE} while it still owns it
     */
    record Interval(int partition, long from, long until) {

        boolean overlaps(Interval other) {
            return partition == other.partition && from < other.until && other.from < until;
        }

        boolean contains(long millis) {
            return from <= millis && millis < until;
        }
    }

    private OwnershipLog() {
    }

    /**
     * Logs the member's ownership now and after every change.
     *
     * @param member a node's member
     * @param file where to append
     */
    static void follow(KafkaClusterMember member, Path file) {
        Runnable append = () -> append(file, System.currentTimeMillis() + "," + member.getOwnedPartitions().stream()
                .map(String::valueOf).collect(Collectors.joining(" ")) + "\n");
        member.addAssignmentListener(append);
        append.run();
    }

    private static synchronized void append(Path file, String line) {
        try {
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param file a log written by {@link #follow}
     * @return its changes, in order
     */
    static List<Change> read(Path file) {
        List<Change> changes = new ArrayList<>();
        try {
            if (!Files.exists(file)) {
                return changes;
            }
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] fields = line.split(",", -1);
                if (fields.length == 2) {
                    Set<Integer> owned = new TreeSet<>();
                    Arrays.stream(fields[1].split(" ")).filter(s -> !s.isBlank()).map(Integer::valueOf).forEach(owned::add);
                    changes.add(new Change(Long.parseLong(fields[0]), owned));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return changes;
    }

    /**
     * @param changes a node's changes, in order
     * @return each partition's ownership periods
     */
    static List<Interval> intervals(List<Change> changes) {
        List<Interval> intervals = new ArrayList<>();
        long[] since = new long[64];
        Set<Integer> owned = Set.of();
        for (Change change : changes) {
            for (int partition : change.owned()) {
                if (!owned.contains(partition)) {
                    since[partition] = change.millis();
                }
            }
            for (int partition : owned) {
                if (!change.owned().contains(partition)) {
                    intervals.add(new Interval(partition, since[partition], change.millis()));
                }
            }
            owned = change.owned();
        }
        for (int partition : owned) {
            intervals.add(new Interval(partition, since[partition], Long.MAX_VALUE));
        }
        return intervals;
    }
}
