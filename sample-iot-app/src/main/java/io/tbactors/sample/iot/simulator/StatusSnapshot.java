package io.tbactors.sample.iot.simulator;

import java.util.Locale;

/**
 * Counters at one moment, for the simulator's status line (rates are the difference of two snapshots).
 *
 * @param nanoTime when
 * @param sent readings answered 200
 * @param errors readings that failed
 * @param skipped readings skipped because too many were in flight
 * @param processed rule-engine messages processed
 * @param actors live actors
 * @param backlog messages waiting in mailboxes
 */
record StatusSnapshot(long nanoTime, long sent, long errors, long skipped, long processed, int actors, long backlog) {

    /**
     * @param previous the snapshot before
     * @param devices simulated devices
     * @param activeAlarms active alarms now
     * @return the status line
     */
    String describe(StatusSnapshot previous, int devices, long activeAlarms) {
        double seconds = Math.max(1e-3, (nanoTime - previous.nanoTime) / 1e9);
        return String.format(Locale.ROOT,
                "status: %.1f msg/s posted (%d errors, %d skipped), %.1f msg/s through rule chains | %d devices | %d actors"
                        + " | mailbox backlog %d | %d active alarms",
                (sent - previous.sent) / seconds, errors - previous.errors, skipped - previous.skipped,
                (processed - previous.processed) / seconds, devices, actors, backlog, activeAlarms);
    }
}
