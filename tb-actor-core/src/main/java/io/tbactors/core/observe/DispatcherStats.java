package io.tbactors.core.observe;

/**
 * A point-in-time view of one dispatcher.
 *
 * @param name the dispatcher's name
 * @param kind its kind label ({@code fork-join}, {@code single}, {@code virtual}, {@code custom})
 * @param poolSize configured threads, 0 when unbounded
 * @param threads threads in the pool now, -1 when unknown
 * @param activeThreads threads running a turn now, -1 when unknown
 * @param queuedTasks turns waiting for a thread, -1 when unknown
 * @param completedTurns turns run so far
 * @param actors live actors
 * @param pendingMessages messages waiting in the mailboxes of its actors
 * @param terminated whether its executor has terminated
 */
public record DispatcherStats(String name, String kind, int poolSize, int threads, int activeThreads, long queuedTasks,
                              long completedTurns, int actors, long pendingMessages, boolean terminated) {
}
