package io.tbactors.kafka;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One queue per entity of the records of a partition, for one assignment: the record at the head of an entity's
 * queue is the only one of that entity with its actors; the next starts when the head is done (processed or dead
 * lettered). A record that comes back unprocessed or failed is delivered again while the entity's later records
 * wait, so redelivery never reorders an entity's records. Entities do not wait for each other. Once an entity's head
 * is dropped (left uncommitted for the partition's next owner), so is every later record of that entity in this
 * assignment, whether it was waiting already or comes in a later poll: none may be processed before the dropped one.
 */
final class EntityLanes {

    /** A record waiting for, or holding, the head of its entity's queue. */
    interface Task {

        /** Delivers the record: it is at the head of its entity now. */
        void start();

        /** The record will not be delivered by this node: its entity's queue was dropped. */
        void drop();
    }

    /** Waiting tasks per entity; an entity is present while its head is being delivered. */
    private final Map<String, ArrayDeque<Task>> waiting = new HashMap<>();
    /** Entities whose head was dropped: their later records are dropped as they come (at most the partition's entities). */
    private final Set<String> dropped = new HashSet<>();
    private boolean closed;

    /**
     * Starts the task at once when its entity has nothing in flight, otherwise queues it behind the others; drops it
     * when the entity's head was dropped.
     *
     * @param entity the entity's key
     * @param task the record's delivery
     */
    void submit(String entity, Task task) {
        boolean drop;
        synchronized (this) {
            if (closed) {
                return;
            }
            drop = dropped.contains(entity);
            if (!drop) {
                ArrayDeque<Task> queue = waiting.get(entity);
                if (queue != null) {
                    queue.add(task);
                    return;
                }
                waiting.put(entity, new ArrayDeque<>());
            }
        }
        if (drop) {
            task.drop();
        } else {
            task.start();
        }
    }

    /**
     * The head of the entity's queue is done: starts the next, if any.
     *
     * @param entity the entity's key
     */
    void next(String entity) {
        Task next;
        synchronized (this) {
            ArrayDeque<Task> queue = waiting.get(entity);
            if (queue == null) {
                return;
            }
            next = queue.poll();
            if (next == null) {
                waiting.remove(entity);
            }
        }
        if (next != null) {
            next.start();
        }
    }

    /**
     * The head of the entity's queue will not be processed by this node: neither will the records behind it, nor
     * those of the entity submitted later; all are told {@link Task#drop()}.
     *
     * @param entity the entity's key
     */
    void drop(String entity) {
        List<Task> behind;
        synchronized (this) {
            dropped.add(entity);
            ArrayDeque<Task> queue = waiting.remove(entity);
            behind = queue == null ? List.of() : List.copyOf(queue);
        }
        behind.forEach(Task::drop);
    }

    /** Forgets every queue, without telling: the partition was given up and what it held stops counting. */
    synchronized void close() {
        closed = true;
        waiting.clear();
        dropped.clear();
    }

    /** @return records waiting behind the head of their entity */
    synchronized int waitingCount() {
        return waiting.values().stream().mapToInt(ArrayDeque::size).sum();
    }
}
