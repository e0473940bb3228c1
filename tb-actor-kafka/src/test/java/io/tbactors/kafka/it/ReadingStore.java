package io.tbactors.kafka.it;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import io.tbactors.kafka.EntityPartitioner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;

/** The readings every node of a test has processed, shared by the nodes of one JVM, in processing order. */
public final class ReadingStore {

    /**
     * @param node the node that processed it
     * @param seq the reading's sequence number
     */
    public record Processed(String node, int seq) {
    }

    /**
     * A line of a journal.
     *
     * @param node the node that stored it
     * @param seq the reading's sequence number
     * @param millis when it was stored, by the storing process's clock
     * @param token the fencing token of the ownership it was stored in ({@code TbOwnershipEpoch#getFencingToken()})
     */
    public record Journaled(String node, UUID device, int seq, long millis, long token) {
    }

    /**
     * A journal read as a store fenced by token would have taken it: per partition, a line whose token is lower than
     * that of a line accepted before it is refused, as a database refuses a write older than the newest it holds.
     *
     * @param accepted the lines the store took, in the order written
     * @param refused the lines it refused, in the order written
     */
    public record Fenced(List<Journaled> accepted, List<Journaled> refused) {

        /**
         * @param lines a journal's lines, in the order written
         * @param partition the partition of a device
         * @return the lines the store took and those it refused
         */
        public static Fenced of(List<Journaled> lines, ToIntFunction<UUID> partition) {
            Map<Integer, Long> newest = new HashMap<>();
            List<Journaled> accepted = new ArrayList<>();
            List<Journaled> refused = new ArrayList<>();
            for (Journaled line : lines) {
                int of = partition.applyAsInt(line.device());
                if (line.token() < newest.getOrDefault(of, Long.MIN_VALUE)) {
                    refused.add(line);
                } else {
                    newest.put(of, line.token());
                    accepted.add(line);
                }
            }
            return new Fenced(accepted, refused);
        }
    }

    private final Map<UUID, List<Processed>> byDevice = new ConcurrentHashMap<>();
    private final Map<UUID, List<Journaled>> writesByDevice = new ConcurrentHashMap<>();
    private final Map<UUID, AtomicReference<String>> processingNow = new ConcurrentHashMap<>();
    private final Map<String, Set<TbActorId>> stoppedByNode = new ConcurrentHashMap<>();
    private final AtomicInteger overlaps = new AtomicInteger();
    private static final String FENCE_SUFFIX = ".fence";
    private static final String REFUSED_SUFFIX = ".refused";

    private final Path journal;
    private final Object[] fenceLocks = IntStream.range(0, ClusterNode.PARTITIONS).mapToObj(i -> new Object()).toArray();
    private final Map<String, CompletableFuture<Void>> unfinished = new ConcurrentHashMap<>();
    private final Map<UUID, List<String>> attempts = new ConcurrentHashMap<>();
    private final Map<String, List<TbActorMsg>> heard = new ConcurrentHashMap<>();

    /** A store in memory only. */
    public ReadingStore() {
        this(null);
    }

    /**
     * @param journal when not null, a file every stored reading is appended to before {@link #store} returns, as
     *     {@code node,device,seq,millis,token}: what a process killed with SIGKILL had stored is still there; several
     *     processes may append to one journal (each line is one append). The journal is fenced by token: a reading
     *     whose token is lower than that of a reading of its partition stored before is refused
     */
    public ReadingStore(Path journal) {
        this.journal = journal;
    }

    /**
     * @param journal a journal written by {@link #ReadingStore(Path)}
     * @return what it holds, per device in the order stored
     */
    public static Map<UUID, List<Processed>> readJournal(Path journal) {
        Map<UUID, List<Processed>> readings = new LinkedHashMap<>();
        for (Journaled line : readJournalLines(journal)) {
            readings.computeIfAbsent(line.device(), d -> new ArrayList<>()).add(new Processed(line.node(), line.seq()));
        }
        return readings;
    }

    /**
     * @param journal a journal written by {@link #ReadingStore(Path)}
     * @return its complete lines, in the order stored
     */
    public static List<Journaled> readJournalLines(Path journal) {
        List<Journaled> lines = new ArrayList<>();
        try {
            String text = Files.readString(journal, StandardCharsets.UTF_8);
            // only complete lines: another process may be appending one now
            for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
                String[] fields = line.split(",");
                if (fields.length == 5) {
                    lines.add(new Journaled(fields[0], UUID.fromString(fields[1]), Integer.parseInt(fields[2]),
                            Long.parseLong(fields[3]), Long.parseLong(fields[4])));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    /**
     * Stores a reading; counts an overlap when another node is processing a reading of the same device meanwhile.
     *
     * @param node the processing node
     * @param seq the reading
     * @param token the fencing token of the ownership the reading is stored in
     * @return whether it was stored: false when the journal refused it (a write of the partition with a greater token
     *     came first); a store without a journal takes every reading
     */
    public boolean store(String node, UUID device, int seq, long token) {
        AtomicReference<String> current = processingNow.computeIfAbsent(device, d -> new AtomicReference<>());
        if (!current.compareAndSet(null, node)) {
            overlaps.incrementAndGet();
        }
        try {
            long millis = System.currentTimeMillis();
            if (journal != null && !appendFenced(device, node + "," + device + "," + seq + "," + millis + "," + token + "\n", token)) {
                return false;
            }
            byDevice.computeIfAbsent(device, d -> Collections.synchronizedList(new ArrayList<>())).add(new Processed(node, seq));
            writesByDevice.computeIfAbsent(device, d -> Collections.synchronizedList(new ArrayList<>()))
                    .add(new Journaled(node, device, seq, millis, token));
            return true;
        } finally {
            current.compareAndSet(node, null);
        }
    }

    /**
     * Appends a line to the journal unless the journal has taken a write of the device's partition with a greater
     * fencing token, as a database that keeps each partition's newest token in a row it locks would: the newest tokens
     * are kept in a file beside the journal, each partition's in a region of its own, locked (across the processes
     * that share the journal) from the check to the append. A refused line goes to a second file beside the journal.
     *
     * @return whether the line was appended
     */
    private boolean appendFenced(UUID device, String line, long token) {
        int partition = EntityPartitioner.partition(device, ClusterNode.PARTITIONS);
        long position = partition * (long) Long.BYTES;
        // one lock per partition in this process too: a file lock is held by the process, not by a thread
        synchronized (fenceLocks[partition]) {
            try (FileChannel fence = FileChannel.open(sibling(journal, FENCE_SUFFIX), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE); FileLock ignored = fence.lock(position, Long.BYTES, false)) {
                ByteBuffer newest = ByteBuffer.allocate(Long.BYTES);
                if (fence.read(newest, position) == Long.BYTES && token < newest.getLong(0)) {
                    Files.writeString(sibling(journal, REFUSED_SUFFIX), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                    return false;
                }
                fence.write(ByteBuffer.allocate(Long.BYTES).putLong(0, token), position);
                appendToJournal(line);
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Path sibling(Path journal, String suffix) {
        return journal.resolveSibling(journal.getFileName() + suffix);
    }

    /**
     * @param journal a journal written by {@link #ReadingStore(Path)}
     * @return the lines it refused because a write of the partition with a greater fencing token came first
     */
    public static List<Journaled> readRefusedLines(Path journal) {
        Path refused = sibling(journal, REFUSED_SUFFIX);
        return Files.exists(refused) ? readJournalLines(refused) : List.of();
    }

    /**
     * Starts storing a reading asynchronously; it is stored when the test calls {@link #finish}.
     *
     * @param node the processing node
     * @param seq the reading
     * @param token the fencing token of the ownership the reading is stored in
     * @return completes once the reading is stored
     */
    public CompletableFuture<Void> storeLater(String node, UUID device, int seq, long token) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        unfinished.put(device + "/" + seq, finished);
        return finished.thenRun(() -> store(node, device, seq, token));
    }

    /**
     * @param seq a reading
     * @return whether its asynchronous storing was started and not finished yet
     */
    public boolean isUnfinished(UUID device, int seq) {
        return unfinished.containsKey(device + "/" + seq);
    }

    /**
     * Finishes storing a reading started by {@link #storeLater}.
     *
     * @param seq the reading
     */
    public void finish(UUID device, int seq) {
        unfinished.remove(device + "/" + seq).complete(null);
    }

    private synchronized void appendToJournal(String line) {
        try {
            // one write per reading, straight to the file: the operating system keeps it when the process is killed
            Files.writeString(journal, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Notes one attempt at a reading, in the order the device's actor saw them.
     *
     * @param seq the reading
     * @param outcome what the actor did with it, such as {@code stored} or {@code failed}
     */
    public void attempted(UUID device, int seq, String outcome) {
        attempts.computeIfAbsent(device, d -> Collections.synchronizedList(new ArrayList<>())).add(seq + ":" + outcome);
    }

    /**
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
     * @return its readings in processing order, a copy
     */
    public List<Processed> readings(UUID device) {
        return copy(byDevice.get(device));
    }

    /**
     * @return its readings in processing order with the time each was stored, a copy
     */
    public List<Journaled> writes(UUID device) {
        return copy(writesByDevice.get(device));
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
     * @return the actors its root stopped on partition changes
     */
    public Set<TbActorId> stoppedOn(String node) {
        return stoppedByNode.getOrDefault(node, Set.of());
    }

    /** @return times two nodes processed a reading of the same device at once */
    public int overlaps() {
        return overlaps.get();
    }

    /**
     * @param node the node whose broadcast listener ran
     * @param msg what it heard
     */
    public void heard(String node, TbActorMsg msg) {
        heard.computeIfAbsent(node, n -> Collections.synchronizedList(new ArrayList<>())).add(msg);
    }

    /**
     * @return the broadcasts it heard, in order, a copy
     */
    public List<TbActorMsg> heardOn(String node) {
        return copy(heard.get(node));
    }
}
