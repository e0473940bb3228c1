package io.tbactors.kafka.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tbactors.kafka.KafkaClusterMember;
import io.tbactors.kafka.KafkaTbClusterRouter;
import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Meters of this node's cluster membership: partitions owned, consumer lag of each owned partition (the rows come
 * and go with ownership), records in flight, and counters of records and messages.
 */
public class TbClusterMeterBinder implements MeterBinder {

    /** Gauge of the partitions this node owns. */
    public static final String PARTITIONS_OWNED = "tb.actors.cluster.partitions.owned";

    /** Gauge of the consumer lag, tag {@code partition}, one row per owned partition. */
    public static final String CONSUMER_LAG = "tb.actors.cluster.consumer.lag";

    /** Gauge of the age of the oldest record in flight, tag {@code partition}, one row per owned partition; 0 when none. */
    public static final String OLDEST_IN_FLIGHT = "tb.actors.cluster.records.oldest.in.flight";

    /** Counter of offset commits that failed. */
    public static final String COMMITS_FAILED = "tb.actors.cluster.commits.failed";

    /** Counter: times this node gave its partitions up because it could not confirm its membership in time. */
    public static final String FENCED = "tb.actors.cluster.fenced";

    /** Counter of record deliveries not completed within the processing timeout. */
    public static final String MESSAGES_TIMED_OUT = "tb.actors.cluster.messages.timed.out";

    /** Gauge of the records handed to the actors and not yet completed. */
    public static final String RECORDS_IN_FLIGHT = "tb.actors.cluster.records.in.flight";

    /** Counter of records polled. */
    public static final String RECORDS_CONSUMED = "tb.actors.cluster.records.consumed";

    /** Counter of records skipped because they could not be decoded. */
    public static final String RECORDS_UNDECODABLE = "tb.actors.cluster.records.undecodable";

    /** Counter of records still in flight when their partition was given up; the next owner delivers them again. */
    public static final String RECORDS_ABANDONED = "tb.actors.cluster.records.abandoned";

    /** Counter of messages given up after every delivery came back unprocessed. */
    public static final String MESSAGES_NOT_PROCESSED = "tb.actors.cluster.messages.not.processed";

    /** Counter of assigned partitions not taken because Kafka did not acknowledge their ownership markers, per attempt. */
    public static final String MARKERS_FAILED = "tb.actors.cluster.ownership.markers.failed";

    /** Counter of messages whose write a store fenced by token refused ({@code TbEntityMsg#onSuperseded}). */
    public static final String MESSAGES_SUPERSEDED = "tb.actors.cluster.messages.superseded";

    /** Counter of records written to the dead-letter topic after their redeliveries. */
    public static final String RECORDS_DEAD_LETTERED = "tb.actors.cluster.records.dead.lettered";

    /** Counter of messages whose actor reported a processing failure. */
    public static final String MESSAGES_FAILED = "tb.actors.cluster.messages.failed";

    /** Counter of deliveries repeated after a message came back unprocessed. */
    public static final String MESSAGES_REDELIVERED = "tb.actors.cluster.messages.redelivered";

    /** Counter of messages sent, tag {@code route}: {@code local} or {@code kafka}. */
    public static final String MESSAGES_SENT = "tb.actors.cluster.messages.sent";

    /** Counter of ownership changes. */
    public static final String REBALANCES = "tb.actors.cluster.rebalances";

    private final KafkaClusterMember member;
    private final KafkaTbClusterRouter router;

    /**
     * @param member this node's membership
     * @param router the router, for the sent counters; may be null
     */
    public TbClusterMeterBinder(KafkaClusterMember member, KafkaTbClusterRouter router) {
        this.member = member;
        this.router = router;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(PARTITIONS_OWNED, member, m -> m.getOwnedPartitions().size())
                .description("Partitions of the cluster topic this node owns").register(registry);
        Gauge.builder(RECORDS_IN_FLIGHT, member, KafkaClusterMember::getRecordsInFlight)
                .description("Records handed to the actors and not yet completed").register(registry);
        MultiGauge lag = MultiGauge.builder(CONSUMER_LAG).description("Records of an owned partition not yet read; NaN while unknown")
                .register(registry);
        MultiGauge oldest = MultiGauge.builder(OLDEST_IN_FLIGHT).baseUnit("seconds")
                .description("How long the oldest record of an owned partition handed to the actors has waited to complete")
                .register(registry);
        Runnable refreshPartitions = () -> {
            lag.register(member.getOwnedPartitions().stream()
                    .map(partition -> MultiGauge.Row.of(Tags.of("partition", String.valueOf(partition)), member,
                            m -> m.getLag(partition) < 0 ? Double.NaN : m.getLag(partition)))
                    .toList(), true);
            oldest.register(member.getOwnedPartitions().stream()
                    .map(partition -> MultiGauge.Row.of(Tags.of("partition", String.valueOf(partition)), member, m -> {
                        Duration age = m.getOldestInFlight(partition);
                        return age == null ? 0 : age.toNanos() / 1e9;
                    }))
                    .toList(), true);
        };
        refreshPartitions.run();
        member.addAssignmentListener(refreshPartitions);
        counter(registry, RECORDS_CONSUMED, "Records polled", KafkaClusterMember::getConsumedCount);
        counter(registry, RECORDS_UNDECODABLE, "Records skipped because they could not be decoded",
                KafkaClusterMember::getUndecodableCount);
        counter(registry, RECORDS_ABANDONED, "Records in flight when their partition was given up; delivered again by the next owner",
                KafkaClusterMember::getAbandonedCount);
        counter(registry, MESSAGES_NOT_PROCESSED, "Messages given up after every delivery came back unprocessed",
                KafkaClusterMember::getNotProcessedCount);
        counter(registry, MESSAGES_SUPERSEDED, "Messages whose write a store refused because a later owner of the partition wrote first",
                KafkaClusterMember::getSupersededCount);
        counter(registry, RECORDS_DEAD_LETTERED, "Records written to the dead-letter topic after their redeliveries",
                KafkaClusterMember::getDeadLetteredCount);
        counter(registry, MESSAGES_FAILED, "Messages whose actor reported a processing failure", KafkaClusterMember::getFailedCount);
        counter(registry, MESSAGES_REDELIVERED, "Deliveries repeated after a message came back unprocessed",
                KafkaClusterMember::getRedeliveredCount);
        counter(registry, COMMITS_FAILED, "Offset commits that failed", KafkaClusterMember::getCommitFailureCount);
        counter(registry, FENCED, "Times the partitions were given up for want of a confirmed membership",
                KafkaClusterMember::getFencedCount);
        counter(registry, MARKERS_FAILED, "Assigned partitions not taken because Kafka did not acknowledge their ownership markers",
                KafkaClusterMember::getMarkerFailureCount);
        counter(registry, MESSAGES_TIMED_OUT, "Record deliveries not completed within the processing timeout",
                KafkaClusterMember::getTimedOutCount);
        counter(registry, REBALANCES, "Changes of this node's partitions", KafkaClusterMember::getRebalanceCount);
        if (router != null) {
            for (String route : List.of("local", "kafka")) {
                ToDoubleFunction<KafkaTbClusterRouter> count = "local".equals(route)
                        ? KafkaTbClusterRouter::getSentLocallyCount : KafkaTbClusterRouter::getSentRemotelyCount;
                FunctionCounter.builder(MESSAGES_SENT, router, count)
                        .description("Messages sent for entities").tags(Tags.of("route", route)).register(registry);
            }
        }
    }

    private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<KafkaClusterMember> count) {
        FunctionCounter.builder(name, member, count).description(description).register(registry);
    }
}
