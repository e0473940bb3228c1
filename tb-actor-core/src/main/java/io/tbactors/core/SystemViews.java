package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.core.dispatch.Dispatcher;
import io.tbactors.core.observe.ActorStats;
import io.tbactors.core.observe.DispatcherStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeMap;

/** Point-in-time views of a system's dispatchers and actors, for endpoints and reports; nothing here is on a hot path. */
final class SystemViews {

    private final ActorRuntime runtime;

    SystemViews(ActorRuntime runtime) {
        this.runtime = runtime;
    }

    List<DispatcherStats> dispatcherStats() {
        Map<String, Long> pending = new HashMap<>();
        for (TbActorMailbox mailbox : runtime.actors.all()) {
            pending.merge(mailbox.dispatcher().getName(), (long) mailbox.pendingMessages(), Long::sum);
        }
        List<DispatcherStats> result = new ArrayList<>();
        for (Dispatcher d : runtime.dispatchers.all()) {
            result.add(new DispatcherStats(d.getName(), d.getKind().label(), d.getPoolSize(), d.getThreads(), d.getActiveThreads(),
                    d.getQueuedTasks(), d.getCompletedTurns(), d.getActorCount(), pending.getOrDefault(d.getName(), 0L),
                    d.isTerminated()));
        }
        result.sort(Comparator.comparing(DispatcherStats::name));
        return result;
    }

    Optional<ActorStats> actorStats(TbActorId actorId) {
        TbActorMailbox mailbox = runtime.actors.get(actorId);
        return mailbox == null ? Optional.empty() : Optional.of(statsOf(mailbox));
    }

    Optional<ActorStats> findActorStats(String id) {
        for (TbActorMailbox mailbox : runtime.actors.all()) {
            if (mailbox.getSelf().toString().equals(id)) {
                return Optional.of(statsOf(mailbox));
            }
        }
        return Optional.empty();
    }

    List<ActorStats> largestMailboxes(int limit) {
        if (limit < 1) {
            return List.of();
        }
        PriorityQueue<TbActorMailbox> top = new PriorityQueue<>(Comparator.comparingInt(TbActorMailbox::pendingMessages));
        for (TbActorMailbox mailbox : runtime.actors.all()) {
            if (mailbox.pendingMessages() == 0) {
                continue;
            }
            top.add(mailbox);
            if (top.size() > limit) {
                top.poll();
            }
        }
        List<ActorStats> result = new ArrayList<>();
        for (TbActorMailbox mailbox : top) {
            result.add(statsOf(mailbox));
        }
        result.sort(Comparator.comparingInt(ActorStats::pendingMessages).reversed());
        return result;
    }

    Map<String, Map<String, Integer>> actorCountsByDispatcherAndType() {
        Map<String, Map<String, Integer>> counts = new TreeMap<>();
        for (TbActorMailbox mailbox : runtime.actors.all()) {
            counts.computeIfAbsent(mailbox.dispatcher().getName(), k -> new TreeMap<>()).merge(mailbox.actorType(), 1, Integer::sum);
        }
        return counts;
    }

    long pendingMessages() {
        long total = 0;
        for (TbActorMailbox mailbox : runtime.actors.all()) {
            total += mailbox.pendingMessages();
        }
        return total;
    }

    static ActorStats statsOf(TbActorMailbox mailbox) {
        TbActorMailbox parent = mailbox.parent;
        return new ActorStats(mailbox.getSelf().toString(), mailbox.actorType(), mailbox.getSelf().getEntityType(),
                mailbox.dispatcher().getName(), mailbox.stateName(), mailbox.pendingMessages(),
                parent == null ? null : parent.getSelf().toString(), ActorChildren.count(mailbox));
    }
}
