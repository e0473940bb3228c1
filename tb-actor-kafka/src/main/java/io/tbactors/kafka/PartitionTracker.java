package io.tbactors.kafka;

import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What this node knows of one partition of the topic, for as long as it runs: whether it owns it, the offsets of
 * records handed to the actors and not yet completed, the local sends in flight, and this node's own sends through
 * Kafka that the consumer may not have read yet.
 *
 * <p>The committable position is contiguous: the lowest offset still in flight or held (given up by this node
 * without being processed), or the offset after the last record handed when none is. Records complete in any order
 * (different entities, different actors); the commit never passes one that has not completed.
 *
 * <p>Local sends start only once the partition is caught up: read up to its end offset at assignment and past every
 * record this node itself sent to it, with none of those sends still unanswered and every one of those records
 * completed by its actor. Until then a sender whose earlier message went through Kafka would see a later one, told
 * locally, overtake it.
 *
 * <p>Each assignment starts a new generation; completions of records handed in an earlier one are ignored.
 */
final class PartitionTracker {

    /** Where the partition is on this node. */
    enum State {
        /** Another node owns it (or nobody yet). */
        NOT_OWNED,
        /** Assigned here; older records are still being read, so local sends go through Kafka. */
        CATCHING_UP,
        /** Owned and caught up: local sends are told directly. */
        OWNED,
        /** Being given up: no new records or local sends; the ones in flight are awaited. */
        REVOKING
    }

    /** How one message is routed. */
    enum Route {
        /** Told to the local root actor; release with {@link #releaseLocal()}. */
        LOCAL,
        /** Sent through Kafka; report the answer with {@link #remoteAnswered(long)}. */
        KAFKA
    }

    private final int partition;
    private final AtomicInteger nodeInFlight;
    /** Offsets handed in the current generation and not completed, with the time each was handed. */
    private final TreeMap<Long, Long> inFlightOffsets = new TreeMap<>();
    /** Offsets this node will not process (given up while stopping or revoking): they hold the commit back. */
    private final TreeSet<Long> heldOffsets = new TreeSet<>();
    private EntityLanes lanes = new EntityLanes();
    private State state = State.NOT_OWNED;
    private int generation;
    /** The offset of the ownership marker this node appended when it took the partition: the epochs' fencing token. */
    private long fencingToken = -1;
    private int localInFlight;
    private int remoteUnanswered;
    private long lastRemoteOffset = -1;
    private long nextOffset = -1;
    private long committedOffset = -1;
    private long catchUpTarget = -1;
    private volatile long lag = -1;

    /**
     * @param nodeInFlight the node's count of records in flight, shared by its partitions
     */
    PartitionTracker(int partition, AtomicInteger nodeInFlight) {
        this.partition = partition;
        this.nodeInFlight = nodeInFlight;
    }

    int partition() {
        return partition;
    }

    synchronized State state() {
        return state;
    }

    synchronized boolean isOwned() {
        return state != State.NOT_OWNED;
    }

    /**
     * @param recordGeneration the generation a record was handed in
     * @return whether the partition is still taken in that generation, so the record's completion still matters
     */
    synchronized boolean isActive(int recordGeneration) {
        return recordGeneration == generation && (state == State.CATCHING_UP || state == State.OWNED);
    }

    /**
     * @param recordGeneration the generation a record was handed in
     * @return whether this node still owns the partition in that generation, giving it up included
     */
    synchronized boolean isCurrent(int recordGeneration) {
        return recordGeneration == generation && state != State.NOT_OWNED;
    }

    /**
     * @param sendGeneration the generation a local send was told in
     * @return whether the partition is still owned and caught up in that generation, so the send is still this node's
     */
    synchronized boolean isOwnedAndCaughtUp(int sendGeneration) {
        return sendGeneration == generation && state == State.OWNED;
    }

    /** @return the generation of the assignment that starts now, for tests: its fencing token is the generation */
    synchronized int assign() {
        return assign(generation + 1);
    }

    /**
     * @param fencingToken the offset of the ownership marker of the assignment
     * @return the generation of the assignment that starts now
     */
    synchronized int assign(long fencingToken) {
        dropInFlight();
        lanes.close();
        lanes = new EntityLanes();
        state = State.CATCHING_UP;
        generation++;
        this.fencingToken = fencingToken;
        nextOffset = -1;
        committedOffset = -1;
        catchUpTarget = -1;
        lag = -1;
        return generation;
    }

    synchronized int generation() {
        return generation;
    }

    /**
     * @param recordGeneration a generation of this node's assignments of the partition
     * @return the fencing token of that assignment while it is the current one, or -1 (older than any)
     */
    synchronized long fencingToken(int recordGeneration) {
        return recordGeneration == generation ? fencingToken : -1;
    }

    /** @return the per-entity queues of the current generation's records */
    synchronized EntityLanes lanes() {
        return lanes;
    }

    /**
     * Decides how a message is sent, and reserves it: a local send is awaited by a revocation, a send through Kafka
     * holds the catching up back until it is answered.
     *
     * @return the route
     */
    synchronized Route route() {
        if (state == State.OWNED) {
            localInFlight++;
            return Route.LOCAL;
        }
        remoteUnanswered++;
        return Route.KAFKA;
    }

    synchronized void releaseLocal() {
        localInFlight--;
        notifyAll();
    }

    /** @param offset the offset Kafka gave the record, or -1 when the send failed */
    synchronized void remoteAnswered(long offset) {
        remoteUnanswered--;
        lastRemoteOffset = Math.max(lastRemoteOffset, offset);
    }

    /** @param offset the end offset at assignment */
    synchronized void catchUpTo(long offset) {
        catchUpTarget = offset;
    }

    synchronized boolean needsCatchUpTarget() {
        return state == State.CATCHING_UP && catchUpTarget < 0;
    }

    /**
     * @param position the consumer's position in this partition, or -1 when unknown
     * @return whether this call ended the catching up
     */
    synchronized boolean caughtUpAt(long position) {
        if (state == State.CATCHING_UP && catchUpTarget >= 0 && position >= catchUpTarget
                && remoteUnanswered == 0 && position > lastRemoteOffset && !awaitedInFlight()) {
            state = State.OWNED;
            return true;
        }
        return false;
    }

    /**
     * @return whether a record the catching up waits for (one before the assignment's end offset, or up to this node's
     *     last send through Kafka) is still with the actors: read is not enough, as a local send told now would
     *     overtake it at its actor
     */
    private boolean awaitedInFlight() {
        return !inFlightOffsets.isEmpty() && inFlightOffsets.firstKey() <= Math.max(catchUpTarget - 1, lastRemoteOffset);
    }

    /** @param offset a record handed to the actors in the current generation */
    synchronized void handed(long offset) {
        inFlightOffsets.put(offset, System.nanoTime());
        nodeInFlight.incrementAndGet();
        nextOffset = offset + 1;
    }

    /** @param offset a record skipped without reaching the actors (it could not be decoded) */
    synchronized void skipped(long offset) {
        nextOffset = offset + 1;
    }

    /**
     * @param recordGeneration the generation the record was handed in
     * @param offset a handed record that completed, processed or told why not
     */
    synchronized void completed(int recordGeneration, long offset) {
        if (recordGeneration == generation && inFlightOffsets.remove(offset) != null) {
            nodeInFlight.decrementAndGet();
            if (state == State.REVOKING) {
                notifyAll();
            }
        }
    }

    /**
     * @param recordGeneration the generation the record was handed in
     * @param offset a handed record this node will not process: it stops being awaited, and the commit stays below it
     */
    synchronized void held(int recordGeneration, long offset) {
        if (recordGeneration == generation && inFlightOffsets.remove(offset) != null) {
            heldOffsets.add(offset);
            nodeInFlight.decrementAndGet();
            notifyAll();
        }
    }

    /** @return nanoseconds since the oldest record in flight was handed, or -1 when none is */
    synchronized long oldestInFlightNanos() {
        return inFlightOffsets.isEmpty() ? -1 : System.nanoTime() - inFlightOffsets.firstEntry().getValue();
    }

    /** @return records handed and not yet completed */
    synchronized int inFlight() {
        return inFlightOffsets.size();
    }

    /** @return the offset to commit, or -1 when nothing new can be committed */
    synchronized long committable() {
        if (nextOffset < 0) {
            return -1;
        }
        long position = inFlightOffsets.isEmpty() ? nextOffset : inFlightOffsets.firstKey();
        if (!heldOffsets.isEmpty()) {
            position = Math.min(position, heldOffsets.first());
        }
        return position > committedOffset ? position : -1;
    }

    synchronized void committedAt(long offset) {
        committedOffset = Math.max(committedOffset, offset);
    }

    /**
     * Stops local sends and waits, up to the timeout, for the records and local sends in flight.
     *
     * @param timeoutNanos the longest wait
     * @return whether everything in flight completed in time
     * @throws InterruptedException when interrupted while waiting
     */
    synchronized boolean beginRevoke(long timeoutNanos) throws InterruptedException {
        state = State.REVOKING;
        long deadline = System.nanoTime() + timeoutNanos;
        while (localInFlight > 0 || !inFlightOffsets.isEmpty()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, remaining);
        }
        return true;
    }

    /** Gives the partition up: what is still in flight stops counting for this node. */
    synchronized void release() {
        state = State.NOT_OWNED;
        dropInFlight();
        lanes.close();
        lag = -1;
        notifyAll();
    }

    private void dropInFlight() {
        nodeInFlight.addAndGet(-inFlightOffsets.size());
        inFlightOffsets.clear();
        heldOffsets.clear();
    }

    long lag() {
        return lag;
    }

    void lag(long lag) {
        this.lag = lag;
    }
}
