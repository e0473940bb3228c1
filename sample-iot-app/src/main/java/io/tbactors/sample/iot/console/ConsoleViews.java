package io.tbactors.sample.iot.console;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tbactors.sample.iot.alarm.AlarmSeverity;
import io.tbactors.sample.iot.alarm.AlarmStatus;
import io.tbactors.sample.iot.storage.TsValue;

/**
 * What the console shows, as JSON: the same records are the answers of {@code /api/console/*} and the data of
 * the events of {@code /api/console/events}.
 */
public final class ConsoleViews {

    private ConsoleViews() {
    }

    /**
     * A device with its latest values.
     *
     * @param createdTime creation time, epoch milliseconds
     * @param lastActivityTs time of its newest latest value, or null when it never sent telemetry
     * @param latest key to latest value, keys sorted
     */
    public record DeviceRow(UUID id, String name, String type, long createdTime, Long lastActivityTs,
                            Map<String, TsValue> latest) {
    }

    /**
     * The device list.
     *
     * @param total how many devices the tenant has
     * @param devices the first {@code sample.console.max-devices} of them, oldest first
     */
    public record Devices(int total, List<DeviceRow> devices) {
    }

    /**
     * An alarm with its device's name.
     *
     * @param deviceId the device
     * @param deviceName the device's name, or null when it is gone
     * @param type the alarm type
     * @param status active or cleared
     * @param startTs when it was raised
     * @param endTs the last time its condition held
     * @param clearTs when it was cleared, or null
     */
    public record AlarmRow(UUID id, UUID deviceId, String deviceName, String type, AlarmSeverity severity,
                           AlarmStatus status, long startTs, long endTs, Long clearTs) {
    }

    /**
     * The alarm list.
     *
     * @param active how many alarms are active
     * @param alarms the newest {@code sample.console.max-alarms}, newest first
     */
    public record Alarms(long active, List<AlarmRow> alarms) {
    }

    /**
     * One actor of the tree, in depth-first order.
     *
     * @param id the actor id's text
     * @param label what it stands for: a device's or chain's name, a node's id
     * @param actorType the actor's class
     * @param dispatcher its dispatcher
     * @param state its state ({@code ACTIVE}, {@code INITIALIZING}, ...)
     * @param pendingMessages messages waiting in its mailbox
     * @param depth 0 for the root, 1 for its children, ...
     * @param children its live children
     */
    public record ActorRow(String id, String label, String actorType, String dispatcher, String state,
                           int pendingMessages, int depth, int children) {
    }

    /**
     * A dispatcher's load.
     *
     * @param kind {@code fork-join}, {@code single}, {@code virtual} or {@code custom}
     * @param poolSize configured threads, 0 when unbounded
     * @param threads threads now, -1 when unknown
     * @param activeThreads threads running a turn now, -1 when unknown
     * @param queuedTurns turns waiting for a thread, -1 when unknown
     * @param messagesPerSecond messages its actors processed per second since the previous look
     * @param actors its live actors
     * @param pendingMessages messages waiting in their mailboxes
     */
    public record DispatcherRow(String name, String kind, int poolSize, int threads, int activeThreads, long queuedTurns,
                                double messagesPerSecond, int actors, long pendingMessages) {
    }

    /**
     * The runtime.
     *
     * @param count live actors
     * @param pendingMessages messages waiting in all mailboxes
     * @param running whether the actor system runs
     * @param truncated whether the tree shows fewer actors than live ({@code sample.console.max-actors})
     * @param dispatchers each dispatcher, by name
     * @param actors the tree from the root actor, depth first
     */
    public record Actors(int count, long pendingMessages, boolean running, boolean truncated,
                         List<DispatcherRow> dispatchers, List<ActorRow> actors) {
    }
}
