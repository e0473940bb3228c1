package io.tbactors.kafka;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import lombok.extern.slf4j.Slf4j;

/**
 * Whether this process has run without a pause since the group last confirmed its membership, told from a pulse: a
 * thread that notes the time every {@link #PULSE_MILLIS} ms. A process paused (SIGSTOP, a long garbage collection, a
 * suspended VM) sends no heartbeat, and the group hands its partitions to other nodes once its session times out;
 * when it resumes, its threads go on with the work they held before the consumer hears of that. So the lease lapses
 * as soon as the pulse is older than {@code duration}, which is well within the session timeout, and stays lapsed
 * until the consumer, having given up what it owned, {@link #renew renews} it: every epoch of before the pause stays
 * stale.
 *
 * <p>The lease only ever takes ownership away early: taking partitions back is left to Kafka (a rejoin of the group).
 */
@Slf4j
final class OwnershipLease {

    /** How often the pulse beats. */
    static final long PULSE_MILLIS = 100;

    private final long durationNanos;
    private volatile long pulseNanos = System.nanoTime();
    private volatile boolean lapsed;
    private volatile Thread pulse;
    /** The node whose partitions the lease guards: the prefix of its log line and of its thread's name. */
    private volatile String node = "?";

    /** @param durationMillis how old the pulse may be before the lease lapses */
    OwnershipLease(long durationMillis) {
        this.durationNanos = TimeUnit.MILLISECONDS.toNanos(durationMillis);
    }

    /**
     * @param sessionTimeoutMillis the consumer's session timeout
     * @param heartbeatIntervalMillis the consumer's heartbeat interval
     * @return a lease of half the session timeout, shorter when the heartbeat interval would leave less: the group may
     *     give the partitions away a heartbeat interval before the session timeout after a pause begins
     */
    static OwnershipLease forSession(long sessionTimeoutMillis, long heartbeatIntervalMillis) {
        long duration = Math.min(sessionTimeoutMillis / 2, sessionTimeoutMillis - heartbeatIntervalMillis - PULSE_MILLIS);
        return new OwnershipLease(Math.max(2 * PULSE_MILLIS, duration));
    }

    /** @return how old the pulse may be before the lease lapses, in milliseconds */
    long durationMillis() {
        return TimeUnit.NANOSECONDS.toMillis(durationNanos);
    }

    synchronized void start(String node) {
        if (pulse != null) {
            return;
        }
        this.node = node;
        renew();
        Thread thread = new Thread(this::beat, "tb-cluster-pulse-" + node);
        thread.setDaemon(true);
        pulse = thread;
        thread.start();
    }

    synchronized void stop() {
        Thread thread = pulse;
        pulse = null;
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void beat() {
        while (pulse == Thread.currentThread() && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PULSE_MILLIS));
            pulse();
        }
    }

    /** Notes that the process runs; a pulse older than the lease means it was paused, and the lease lapses. */
    synchronized void pulse() {
        long now = System.nanoTime();
        if (now - pulseNanos >= durationNanos && !lapsed) {
            // before the new pulse is published: whoever sees the new pulse sees the lapse too
            lapsed = true;
            log.warn("[{}] This process did not run for {} ms (lease {} ms): the partitions it owned are no longer its own until "
                    + "Kafka confirms its membership", node, TimeUnit.NANOSECONDS.toMillis(now - pulseNanos), durationMillis());
        }
        pulseNanos = now;
    }

    /** @return whether the process ran without a pause as long as the lease since the last renewal */
    boolean isValid() {
        long last = pulseNanos;
        // read after the pulse: a lapse is published before the pulse that follows it
        if (lapsed) {
            return false;
        }
        return System.nanoTime() - last < durationNanos;
    }

    /** Starts a new lease; call only once every ownership of before the lapse has been given up. */
    synchronized void renew() {
        lapsed = false;
        pulseNanos = System.nanoTime();
    }
}
