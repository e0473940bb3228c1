package io.tbactors.kafka;

import io.tbactors.core.RateLimitedWarning;
import io.tbactors.kafka.codec.TbActorMsgCodec;
import io.tbactors.spring.ActorSystemContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import lombok.extern.slf4j.Slf4j;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.springframework.context.SmartLifecycle;

/**
 * This node's membership of the cluster: one consumer in the group, on its own thread, that hands each record of
 * the partitions it owns to the local root actor in partition order, commits offsets only up to the first record not
 * yet completed, and on every ownership change lets the records in flight finish (bounded), commits, and tells the
 * root actor a {@link TbPartitionChangeMsg}.
 *
 * <p>It starts after the root actor and stops before the web server's graceful shutdown and before the actors, so
 * the records in flight at shutdown are still processed and committed, and other nodes take the partitions over.
 */
@Slf4j
public class KafkaClusterMember implements SmartLifecycle {

    /** Record header naming the codec's message type. */
    public static final String TYPE_HEADER = "tb-msg-type";

    /** Record header naming the entity type. */
    public static final String ENTITY_TYPE_HEADER = "tb-entity-type";

    /**
     * Record header of an ownership marker, a record a node appends to a partition when it takes it (its offset is the
     * ownership's fencing token); the header's value is the node's name. Readers of the topic skip such records.
     */
    public static final String OWNERSHIP_MARKER_HEADER = "tb-ownership-marker";

    /** Phase: after the actors start ({@code TbActorsLifecycle.PHASE}), stopping before the web server drains. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    /** How many of the last dead letters {@link #getRecentDeadLetters()} keeps. */
    public static final int RECENT_DEAD_LETTERS = 10;

    private static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
    /** The longest wait before an ownership marker that failed is tried again. */
    private static final long MAX_MARKER_BACKOFF_MILLIS = 30_000;
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(5);
    /** Kafka's default session.timeout.ms. */
    private static final long DEFAULT_SESSION_TIMEOUT_MILLIS = 45_000;
    /** Kafka's default heartbeat.interval.ms. */
    private static final long DEFAULT_HEARTBEAT_INTERVAL_MILLIS = 3_000;

    private final TbClusterProperties properties;
    private final Supplier<Consumer<String, byte[]>> consumerFactory;
    private final ActorSystemContext actorSystemContext;
    private final EntityDeliveries deliveries;
    private final TopicPreparer topicPreparer;
    private final DeadLetterPublisher deadLetters;
    private final OwnershipMarkers markers;
    private volatile PartitionTracker[] trackers = new PartitionTracker[0];
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ClusterMemberStats stats = new ClusterMemberStats();
    private final RecordDispatch dispatch;
    private final List<Runnable> assignmentListeners = new CopyOnWriteArrayList<>();
    private final RateLimitedWarning commitLog = new RateLimitedWarning(Duration.ofSeconds(10));
    private final RateLimitedWarning unknownPartitionLog = new RateLimitedWarning(Duration.ofSeconds(10));
    private final RateLimitedWarning unreachableLog = new RateLimitedWarning(Duration.ofSeconds(30));
    private final RateLimitedWarning markerLog = new RateLimitedWarning(Duration.ofSeconds(10));
    /** Partitions Kafka assigned and this node has not taken yet, for want of an ownership marker; consumer thread only. */
    private final Set<Integer> unmarked = new TreeSet<>();
    private long markerBackoffMillis;
    private long nextMarkerAttemptNanos;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile KafkaTbNodeChannel replies;
    private final OwnershipLease lease;
    private final MembershipFence fence;
    /** This node's name, the prefix of its log lines about the group. */
    private final String node;
    private volatile TbClusterMemberState state = TbClusterMemberState.STARTING;
    private volatile boolean running;
    private volatile int partitionCount;
    private volatile Throwable lastError;
    private volatile Consumer<String, byte[]> consumer;
    private Thread thread;
    private long lastCommitNanos;
    private boolean paused;

    /**
     * @param properties the cluster's settings
     * @param consumerFactory creates the consumer, configured for the group
     * @param codec decodes the records
     * @param actorSystemContext where the records go
     * @param deliveries delivers to the root actor and redelivers what comes back
     * @param topicPreparer creates the topic when asked to and tells its partition count
     * @param deadLetters writes the records given up to the dead-letter topic, and with its producer the ownership
     *     markers; closed when the member stops
     */
    KafkaClusterMember(TbClusterProperties properties, Supplier<Consumer<String, byte[]>> consumerFactory, TbActorMsgCodec codec,
                       ActorSystemContext actorSystemContext, EntityDeliveries deliveries, TopicPreparer topicPreparer,
                       DeadLetterPublisher deadLetters) {
        this.properties = properties;
        this.consumerFactory = consumerFactory;
        this.actorSystemContext = actorSystemContext;
        this.deliveries = deliveries;
        this.topicPreparer = topicPreparer;
        this.deadLetters = deadLetters;
        this.markers = new OwnershipMarkers(properties.getTopic(), deadLetters.producers(), properties.getSendTimeout());
        this.node = properties.nodeName();
        long sessionTimeoutMillis = clientMillis(properties, "session.timeout.ms", DEFAULT_SESSION_TIMEOUT_MILLIS);
        long heartbeatIntervalMillis = clientMillis(properties, "heartbeat.interval.ms", DEFAULT_HEARTBEAT_INTERVAL_MILLIS);
        // the answer is seen at the next poll, and the coordinator got the heartbeat a little before it answered
        long silenceLimitMillis = Math.max(1000, sessionTimeoutMillis - heartbeatIntervalMillis - 1000);
        this.lease = OwnershipLease.forSession(sessionTimeoutMillis, heartbeatIntervalMillis);
        this.fence = new MembershipFence(this, lease, stats, sessionTimeoutMillis, silenceLimitMillis);
        this.dispatch = new RecordDispatch(this, codec, deliveries, deadLetters, stats, actorSystemContext,
                properties.getMaxRedeliveryDelay());
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        if (!properties.isStartWithoutKafka()) {
            prepareTopic();
        }
        consumer = consumerFactory.get();
        running = true;
        state = TbClusterMemberState.JOINING;
        thread = new Thread(this::run, "tb-cluster-" + properties.getGroupId());
        thread.setDaemon(true);
        lease.start(node);
        thread.start();
        log.info("[{}] Joining consumer group '{}' on topic '{}' ({} partitions)", node, properties.getGroupId(), properties.getTopic(),
                partitionCount);
    }

    /**
     * Makes sure the topic exists (creating it when allowed) and learns its partition count, once. Called at start,
     * or earlier by the first send: a send must never make Kafka create the topic with its broker defaults.
     *
     * @return the topic's partition count
     */
    int prepareTopic() {
        return prepareTopic(TopicPreparer.START_TIMEOUT);
    }

    private synchronized int prepareTopic(Duration timeout) {
        if (partitionCount == 0) {
            int count = topicPreparer.prepare(timeout);
            PartitionTracker[] all = new PartitionTracker[count];
            for (int partition = 0; partition < count; partition++) {
                all[partition] = new PartitionTracker(partition, inFlight);
            }
            trackers = all;
            partitionCount = count;
        }
        return partitionCount;
    }

    @Override
    public void stop() {
        Thread consumerThread;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            state = TbClusterMemberState.STOPPING;
            consumerThread = thread;
        }
        consumer.wakeup();
        try {
            if (!stopped.await(properties.getRevocationTimeout().toMillis() + 15_000, TimeUnit.MILLISECONDS)) {
                log.warn("[{}] The consumer thread of group '{}' did not end in time", node, properties.getGroupId());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deadLetters.close();
        log.info("[{}] Left consumer group '{}' ({})", node, properties.getGroupId(), consumerThread.getName());
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private void run() {
        try {
            if (!awaitTopic()) {
                return;
            }
            consumer.subscribe(List.of(properties.getTopic()), new RebalanceListener());
            while (running) {
                pollOnce();
            }
        } finally {
            try {
                revoke(getOwnedPartitions(), true);
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
            } catch (RuntimeException e) {
                log.warn("[{}] Closing the consumer of group '{}' failed", node, properties.getGroupId(), e);
            }
            lease.stop();
            state = TbClusterMemberState.STOPPED;
            stopped.countDown();
        }
    }

    /**
     * With {@code start-without-kafka}, tries to reach Kafka until it answers or the member stops.
     *
     * @return whether the topic is known
     */
    private boolean awaitTopic() {
        while (running && partitionCount == 0) {
            try {
                prepareTopic(properties.getConnectivityCheckInterval());
            } catch (RuntimeException e) {
                lastError = e;
                state = TbClusterMemberState.FAILED;
                unreachableLog.warn(suppressed -> log.warn("[{}] Kafka not reachable yet; retrying every {} ({} more attempts since the "
                        + "last report): {}", node, RETRY_BACKOFF, suppressed, e.getMessage()));
                backOff();
            }
        }
        if (running && state == TbClusterMemberState.FAILED) {
            state = TbClusterMemberState.JOINING;
        }
        return partitionCount > 0;
    }

    private void backOff() {
        try {
            stopped.await(RETRY_BACKOFF.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void pollOnce() {
        try {
            ConsumerRecords<String, byte[]> records = consumer.poll(properties.getPollTimeout());
            // before any record is handed: these may have been fetched with a membership lost during a pause
            fence.fenceIfPaused();
            for (ConsumerRecord<String, byte[]> record : records) {
                hand(record);
            }
            stats.consumed.add(records.count());
            if (state == TbClusterMemberState.FAILED) {
                state = TbClusterMemberState.ACTIVE;
            }
            afterPoll();
        } catch (WakeupException e) {
            if (running) {
                log.debug("[{}] Consumer woken up while running; polling on", node);
            }
        } catch (RuntimeException e) {
            lastError = e;
            state = TbClusterMemberState.FAILED;
            log.error("[{}] Polling topic '{}' failed; retrying in {}", node, properties.getTopic(), RETRY_BACKOFF, e);
            backOff();
        }
    }

    private void hand(ConsumerRecord<String, byte[]> record) {
        PartitionTracker tracker = tracker(record.partition());
        if (tracker == null) {
            // a partition added since the count was read: left uncommitted, read again once the count is adopted
            unknownPartitionLog.warn(suppressed -> log.warn("[{}-{}] Record @{} is in a partition added after this node read the "
                    + "partition count ({}); not processed nor committed until the group rebalances ({} more since the last report)",
                    record.topic(), record.partition(), record.offset(), partitionCount, suppressed));
            return;
        }
        dispatch.hand(record, tracker);
    }

    /**
     * @param tracker a partition's tracker
     * @param generation the assignment the work was handed in
     * @param localSend whether the work is a local send, which only an owner caught up may do
     * @return whether the work's epoch is current: the lease is read first, since it is renewed only after the
     *     partitions of before a lapse were given up
     */
    boolean isCurrentEpoch(PartitionTracker tracker, int generation, boolean localSend) {
        return lease.isValid() && (localSend ? tracker.isOwnedAndCaughtUp(generation) : tracker.isCurrent(generation));
    }

    /** @return how long the process may pause before its epochs turn stale, in milliseconds */
    public long getLeaseMillis() {
        return lease.durationMillis();
    }

    /**
     * Partitions added to the topic change where entities hash. Kafka rebalances the whole group when it sees them, so
     * every node checks the count in that rebalance and, when it grew, gives up what it owns (in-flight records
     * drained and committed), hashes with the new count from then on, and takes its whole assignment again from the
     * last commit: no node goes on hashing with the old count, and no record of a new partition is skipped.
     *
     * @return whether the count grew and the assignment was taken again
     */
    private boolean adoptedNewPartitionCount() {
        int known;
        try {
            known = consumer.partitionsFor(properties.getTopic(), METADATA_TIMEOUT).size();
        } catch (RuntimeException e) {
            log.debug("[{}] Partition count of '{}' not known now: {}", node, properties.getTopic(), e.toString());
            return false;
        }
        int current = partitionCount;
        if (known <= current) {
            return false;
        }
        log.warn("[{}] Topic '{}' has {} partitions now, {} before: entities hash with the new count from now on; partitions taken "
                + "again from their last commit", node, properties.getTopic(), known, current);
        revoke(getOwnedPartitions(), true);
        synchronized (this) {
            PartitionTracker[] all = new PartitionTracker[known];
            for (int partition = 0; partition < known; partition++) {
                all[partition] = new PartitionTracker(partition, inFlight);
            }
            trackers = all;
            partitionCount = known;
        }
        stats.partitionCountChanges.increment();
        List<TopicPartition> assigned = new ArrayList<>();
        for (TopicPartition tp : consumer.assignment()) {
            if (tp.topic().equals(properties.getTopic())) {
                assigned.add(tp);
            }
        }
        seekToCommitted(assigned);
        assign(assigned.stream().map(TopicPartition::partition).toList());
        return true;
    }

    /** Moves the consumer back to the last commit of each partition, or to its beginning when it has none. */
    void seekToCommitted(List<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(partitions), METADATA_TIMEOUT);
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata offset = committed.get(tp);
            if (offset == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, offset);
            }
        }
    }

    private void afterPoll() {
        fence.fenceIfSilent();
        // a node whose metadata was stale during the group's rebalance sees the new count at its next metadata refresh
        adoptedNewPartitionCount();
        List<TopicPartition> withoutTarget = new ArrayList<>();
        List<PartitionTracker> owned = ownedTrackers();
        for (PartitionTracker tracker : owned) {
            TopicPartition tp = topicPartition(tracker.partition());
            tracker.lag(consumer.currentLag(tp).orElse(-1));
            if (tracker.needsCatchUpTarget()) {
                withoutTarget.add(tp);
            } else if (tracker.state() == PartitionTracker.State.CATCHING_UP) {
                tracker.caughtUpAt(position(tp));
            }
        }
        if (!withoutTarget.isEmpty()) {
            setCatchUpTargets(withoutTarget);
        }
        retryMarkers();
        applyBackPressure();
        if (System.nanoTime() - lastCommitNanos >= properties.getCommitInterval().toNanos()) {
            commit(owned, false);
            lastCommitNanos = System.nanoTime();
        }
    }

    private long position(TopicPartition tp) {
        try {
            return consumer.position(tp, Duration.ZERO);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private void setCatchUpTargets(List<TopicPartition> partitions) {
        try {
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, METADATA_TIMEOUT);
            ends.forEach((tp, end) -> {
                PartitionTracker tracker = tracker(tp.partition());
                if (tracker != null) {
                    tracker.catchUpTo(end);
                    tracker.caughtUpAt(position(tp));
                }
            });
        } catch (RuntimeException e) {
            log.debug("[{}] End offsets of {} not known yet: {}", node, partitions, e.toString());
        }
    }

    private void applyBackPressure() {
        int max = properties.getMaxInFlight();
        if (!paused && inFlight.get() >= max) {
            consumer.pause(consumer.assignment());
            paused = true;
            log.debug("[{}] {} records in flight: fetching paused", node, inFlight.get());
        } else if (paused && inFlight.get() <= max / 2) {
            consumer.resume(consumer.paused());
            paused = false;
        }
    }

    private void commit(Collection<PartitionTracker> toCommit, boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<Integer, Long> positions = new HashMap<>();
        for (PartitionTracker tracker : toCommit) {
            long offset = tracker.committable();
            if (offset >= 0) {
                offsets.put(topicPartition(tracker.partition()), new OffsetAndMetadata(offset));
                positions.put(tracker.partition(), offset);
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        if (sync) {
            try {
                commitSync(offsets);
                fence.confirmed();
                positions.forEach((partition, offset) -> toCommit.stream().filter(t -> t.partition() == partition)
                        .forEach(t -> t.committedAt(offset)));
            } catch (RuntimeException e) {
                stats.commitFailures.increment();
                log.warn("[{}] Committing {} failed; their records after the last commit will be delivered again", node,
                        offsets.keySet(), e);
            }
        } else {
            consumer.commitAsync(offsets, (committed, error) -> {
                if (error != null) {
                    stats.commitFailures.increment();
                    commitLog.warn(suppressed -> log.warn("[{}] Committing {} failed; retried at the next interval ({} more failures since "
                            + "the last report): {}", node, offsets.keySet(), suppressed, error.toString()));
                    return;
                }
                // called back on the consumer thread, within a poll or a commit
                fence.confirmed();
                positions.forEach((partition, offset) -> {
                    PartitionTracker tracker = tracker(partition);
                    if (tracker != null) {
                        tracker.committedAt(offset);
                    }
                });
            });
        }
    }

    private void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            consumer.commitSync(offsets, METADATA_TIMEOUT);
        } catch (WakeupException e) {
            // the wake-up meant for a poll at shutdown: the commit still matters
            consumer.commitSync(offsets, METADATA_TIMEOUT);
        }
    }

    /**
     * Gives partitions up: stops local sends and records for them, waits (bounded) for what is in flight, commits
     * and tells the root actor.
     */
    void revoke(Collection<Integer> partitions, boolean commit) {
        List<PartitionTracker> revoked = new ArrayList<>();
        for (Integer partition : partitions) {
            PartitionTracker tracker = tracker(partition);
            if (tracker != null && tracker.isOwned()) {
                revoked.add(tracker);
            }
        }
        if (revoked.isEmpty()) {
            return;
        }
        if (commit) {
            long deadline = System.nanoTime() + properties.getRevocationTimeout().toNanos();
            for (PartitionTracker tracker : revoked) {
                awaitInFlight(tracker, deadline);
            }
            commit(revoked, true);
        }
        Set<Integer> ids = new TreeSet<>();
        for (PartitionTracker tracker : revoked) {
            tracker.release();
            ids.add(tracker.partition());
        }
        log.info("[{}] Partitions {} of '{}' {}; owned now {}", node, ids, properties.getTopic(), commit ? "revoked" : "lost",
                getOwnedPartitions());
        partitionsChanged(ids, Set.of());
    }

    private void awaitInFlight(PartitionTracker tracker, long deadline) {
        try {
            if (!tracker.beginRevoke(Math.max(0, deadline - System.nanoTime()))) {
                stats.abandoned.add(tracker.inFlight());
                log.warn("[{}-{}] Partition revoked with {} record(s) still in flight after {}; the next owner delivers them "
                        + "again", properties.getTopic(), tracker.partition(), tracker.inFlight(), properties.getRevocationTimeout());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Takes partitions: appends an ownership marker to each, whose offset is the new ownership's fencing token, and only
     * then starts handing their records over. A partition whose marker Kafka did not acknowledge is not taken yet: the
     * records polled from it are skipped, and the node tries its marker again after a growing delay while Kafka leaves
     * the partition here ({@link #retryMarkers}).
     */
    private void assign(Collection<Integer> partitions) {
        partitionsChanged(Set.of(), take(partitions));
    }

    /** @return the partitions taken: those with a marker written */
    private Set<Integer> take(Collection<Integer> partitions) {
        List<Integer> known = new ArrayList<>();
        for (Integer partition : partitions) {
            if (tracker(partition) == null) {
                log.warn("[{}-{}] Partition added after this node started; restart the node to take it", properties.getTopic(),
                        partition);
            } else {
                known.add(partition);
            }
        }
        // the generation of the rebalance that made this assignment: Kafka sets it before it calls onPartitionsAssigned
        int groupGeneration = consumer.groupMetadata().generationId();
        long markersStarted = System.nanoTime();
        Map<Integer, Long> tokens = known.isEmpty() ? Map.of() : markers.write(known, node, groupGeneration);
        long markersMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - markersStarted);
        Set<Integer> ids = new TreeSet<>();
        List<Integer> notMarked = new ArrayList<>();
        for (Integer partition : known) {
            Long token = tokens.get(partition);
            if (token == null) {
                notMarked.add(partition);
            } else {
                tracker(partition).assign(token);
                ids.add(partition);
            }
        }
        if (!ids.isEmpty()) {
            log.info("[{}] Partitions {} of '{}' assigned in generation {} of the group, fencing tokens {} (markers written in {} ms); "
                    + "owned now {}", node, ids, properties.getTopic(), groupGeneration, ids.stream().map(tokens::get).toList(),
                    markersMillis, getOwnedPartitions());
        }
        if (!notMarked.isEmpty()) {
            markersFailed(notMarked);
        } else if (unmarked.isEmpty()) {
            markerBackoffMillis = 0;
        }
        return ids;
    }

    private void markersFailed(List<Integer> partitions) {
        stats.markersFailed.add(partitions.size());
        unmarked.addAll(partitions);
        markerBackoffMillis = markerBackoffMillis == 0 ? RETRY_BACKOFF.toMillis()
                : Math.min(2 * markerBackoffMillis, MAX_MARKER_BACKOFF_MILLIS);
        nextMarkerAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(markerBackoffMillis);
        long retryMillis = markerBackoffMillis;
        markerLog.warn(suppressed -> log.warn("[{}] Partitions {} of '{}' are assigned but not taken: Kafka did not acknowledge their "
                + "ownership markers; their records are skipped until a marker is written, tried again in {} ms ({} more since the "
                + "last report)", node, partitions, properties.getTopic(), retryMillis, suppressed));
    }

    /**
     * Writes the ownership markers that failed again, once their delay has passed, for the partitions Kafka still
     * assigns this node; those taken are read again from their last commit (what was polled meanwhile was skipped).
     */
    private void retryMarkers() {
        if (unmarked.isEmpty() || System.nanoTime() - nextMarkerAttemptNanos < 0) {
            return;
        }
        Set<TopicPartition> assigned = consumer.assignment();
        // not those taken meanwhile (a rebalance takes what a fence left unowned) nor those Kafka moved away
        List<Integer> retry = unmarked.stream().filter(partition -> assigned.contains(topicPartition(partition))
                && tracker(partition) != null && !tracker(partition).isOwned()).toList();
        unmarked.clear();
        if (!retry.isEmpty()) {
            seekToCommitted(retry.stream().map(this::topicPartition).toList());
            Set<Integer> taken = take(retry);
            if (!taken.isEmpty()) {
                partitionsChanged(Set.of(), taken);
            }
        }
    }

    private void partitionsChanged(Set<Integer> revoked, Set<Integer> assigned) {
        stats.rebalances.increment();
        assignmentListeners.forEach(Runnable::run);
        if (revoked.isEmpty() && assigned.isEmpty()) {
            return;
        }
        try {
            actorSystemContext.tellWithHighPriority(new TbPartitionChangeMsg(getOwnedPartitions(), revoked, assigned, partitionCount));
        } catch (RuntimeException e) {
            log.warn("[{}] Could not tell the root actor that partitions changed (revoked {}, assigned {}): {}", node, revoked, assigned,
                    e.getMessage());
        }
    }

    private TopicPartition topicPartition(int partition) {
        return new TopicPartition(properties.getTopic(), partition);
    }

    private static List<Integer> ours(Collection<TopicPartition> partitions, String topic) {
        return partitions.stream().filter(tp -> tp.topic().equals(topic)).map(TopicPartition::partition).toList();
    }

    /**
     * @param partition a partition of the topic
     * @return its tracker while this node owns it, or null
     */
    PartitionTracker tracker(int partition) {
        PartitionTracker[] all = trackers;
        return partition >= 0 && partition < all.length ? all[partition] : null;
    }

    private List<PartitionTracker> ownedTrackers() {
        List<PartitionTracker> owned = new ArrayList<>();
        for (PartitionTracker tracker : trackers) {
            if (tracker.isOwned()) {
                owned.add(tracker);
            }
        }
        return owned;
    }

    private static long clientMillis(TbClusterProperties properties, String name, long defaultMillis) {
        String value = properties.getConsumer().get(name);
        try {
            return value == null ? defaultMillis : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return defaultMillis;
        }
    }

    /** @return times this node gave its partitions up because it could not confirm its membership in time */
    public long getFencedCount() {
        return stats.fenced.sum();
    }

    /** @param channel answers the records that carry a request, once they are processed or given up */
    void setReplies(KafkaTbNodeChannel channel) {
        this.replies = channel;
    }

    /** @return the group consumer (consumer thread only) */
    Consumer<String, byte[]> consumer() {
        return consumer;
    }

    /** @return this node's name, the prefix of its log lines */
    String node() {
        return node;
    }

    /** @return what answers the records that carry a request, or null before it is set */
    KafkaTbNodeChannel replies() {
        return replies;
    }

    /** @param listener run on the consumer thread after every ownership change */
    public void addAssignmentListener(Runnable listener) {
        assignmentListeners.add(listener);
    }

    /** @return the member's state */
    public TbClusterMemberState getState() {
        return state;
    }

    /** @return the last failure of a poll, or null */
    public Throwable getLastError() {
        return lastError;
    }

    /** @return the partitions this node owns now, sorted */
    public Set<Integer> getOwnedPartitions() {
        Set<Integer> owned = new TreeSet<>();
        ownedTrackers().forEach(tracker -> owned.add(tracker.partition()));
        return owned;
    }

    /** @return times this node found the topic with more partitions than it knew, and hashed with the new count */
    public long getPartitionCountChanges() {
        return stats.partitionCountChanges.sum();
    }

    /** @return the topic's partition count as this node hashes with it: read at start, updated when partitions are added; 0 before */
    public int getPartitionCount() {
        return partitionCount;
    }

    /** @return the consumer lag of each owned partition (-1 while unknown), by partition */
    public Map<Integer, Long> getLagByPartition() {
        Map<Integer, Long> lag = new TreeMap<>();
        ownedTrackers().forEach(tracker -> lag.put(tracker.partition(), tracker.lag()));
        return lag;
    }

    /**
     * @return its consumer lag, or -1 when it is not owned or not known yet
     */
    public long getLag(int partition) {
        PartitionTracker tracker = tracker(partition);
        return tracker == null ? -1 : tracker.lag();
    }

    /** @return records handed to the actors and not yet completed */
    public int getRecordsInFlight() {
        return inFlight.get();
    }

    /** @return records polled since start */
    public long getConsumedCount() {
        return stats.consumed.sum();
    }

    /** @return records skipped because they could not be decoded */
    public long getUndecodableCount() {
        return stats.undecodable.sum();
    }

    /** @return ownership changes (assignments, revocations, losses) since start */
    public long getRebalanceCount() {
        return stats.rebalances.sum();
    }

    /**
     * @return records still in flight when their partition was given up after the bounded wait: the next owner
     *     delivers them again, so they may be processed twice
     */
    public long getAbandonedCount() {
        return stats.abandoned.sum();
    }

    /** @return deliveries that came back unprocessed and were delivered again */
    public long getRedeliveredCount() {
        return deliveries.getRedeliveredCount();
    }

    /** @return messages given up after every delivery came back unprocessed */
    public long getNotProcessedCount() {
        return deliveries.getNotProcessedCount();
    }

    /** @return assigned partitions not taken because Kafka did not acknowledge their ownership markers, per attempt */
    public long getMarkerFailureCount() {
        return stats.markersFailed.sum();
    }

    /** @return messages whose write a store refused because a later owner of the partition wrote first */
    public long getSupersededCount() {
        return deliveries.getSupersededCount();
    }

    /** @return messages whose processing the actor reported as failed */
    public long getFailedCount() {
        return deliveries.getFailedCount();
    }

    /** @return records written to the dead-letter topic after their redeliveries */
    public long getDeadLetteredCount() {
        return stats.deadLettered.sum();
    }

    /** @return deliveries of records not completed within the processing timeout */
    public long getTimedOutCount() {
        return deliveries.getTimedOutCount();
    }

    /** @return records written to the dead-letter topic since start, by reason (every reason listed) */
    public Map<DeadLetterPublisher.Reason, Long> getDeadLetteredCountByReason() {
        return stats.deadLetteredByReason();
    }

    /** @return the dead-letter topic */
    public String getDeadLetterTopic() {
        return deadLetters.getTopic();
    }

    /** @return the last records written to the dead-letter topic (at most {@value #RECENT_DEAD_LETTERS}), newest last */
    public List<TbClusterDeadLetter> getRecentDeadLetters() {
        return stats.recentDeadLetters();
    }

    /** @return offset commits that failed (each is retried at the next interval or left to the next owner) */
    public long getCommitFailureCount() {
        return stats.commitFailures.sum();
    }

    /**
     * @return how long the oldest record of the partition handed and not yet completed has been in flight, or null
     *     when the partition is not owned or has none
     */
    public Duration getOldestInFlight(int partition) {
        PartitionTracker tracker = tracker(partition);
        long nanos = tracker == null ? -1 : tracker.oldestInFlightNanos();
        return nanos < 0 ? null : Duration.ofNanos(nanos);
    }

    /** @return the cluster's settings */
    public TbClusterProperties getProperties() {
        return properties;
    }

    private final class RebalanceListener implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            revoke(ours(partitions, properties.getTopic()), true);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            revoke(ours(partitions, properties.getTopic()), false);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            fence.rejoined();
            if (running) {
                state = TbClusterMemberState.ACTIVE;
            }
            if (!adoptedNewPartitionCount()) {
                List<Integer> taken = new ArrayList<>(ours(partitions, properties.getTopic()));
                taken.addAll(fence.keptThroughFence(partitions));
                assign(taken);
            }
        }
    }
}
