package io.tbactors.core;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * An actor's children: an intrusive doubly linked list through the children's mailboxes, guarded by the parent's
 * extras (two references per child instead of a hash-set entry, and nothing at all for childless actors), and the
 * broadcasts and filters over it.
 */
final class ActorChildren {

    private ActorChildren() {
    }

    /**
     * Links a child, unless one of the two is stopping. Both stop paths set {@code STOP_REQUESTED} before they take
     * this lock or under it (the parent to list its children, the child to unlink itself), so a child is either listed
     * for the parent's cascade, or unlinked by its own stop, or never linked: no stopped child stays listed.
     *
     * @return false when the parent is stopping, so the caller must stop the child itself
     */
    static boolean add(TbActorMailbox parent, TbActorMailbox child) {
        MailboxExtras e = parent.extras();
        synchronized (e) {
            if (parent.isStopRequested()) {
                return false;
            }
            if (child.isStopRequested()) {
                return true;
            }
            TbActorMailbox head = e.firstChild;
            child.prevSibling = null;
            child.nextSibling = head;
            if (head != null) {
                head.prevSibling = child;
            }
            e.firstChild = child;
            e.childCount++;
            return true;
        }
    }

    static void remove(TbActorMailbox parent, TbActorMailbox child) {
        MailboxExtras e = parent.extrasIfAny();
        if (e == null) {
            return;
        }
        synchronized (e) {
            if (child.prevSibling == null && e.firstChild != child) {
                // not in the list (never added, or removed already): only the first child has no previous sibling
                return;
            }
            TbActorMailbox prev = child.prevSibling;
            TbActorMailbox next = child.nextSibling;
            if (prev == null) {
                e.firstChild = next;
            } else {
                prev.nextSibling = next;
            }
            if (next != null) {
                next.prevSibling = prev;
            }
            child.prevSibling = null;
            child.nextSibling = null;
            e.childCount--;
        }
    }

    /** @return a snapshot of the live children, newest first */
    static List<TbActorMailbox> list(TbActorMailbox parent) {
        MailboxExtras e = parent.extrasIfAny();
        if (e == null) {
            return List.of();
        }
        synchronized (e) {
            if (e.childCount == 0) {
                return List.of();
            }
            List<TbActorMailbox> snapshot = new ArrayList<>(e.childCount);
            for (TbActorMailbox child = e.firstChild; child != null; child = child.nextSibling) {
                snapshot.add(child);
            }
            return snapshot;
        }
    }

    static int count(TbActorMailbox parent) {
        MailboxExtras e = parent.extrasIfAny();
        if (e == null) {
            return 0;
        }
        synchronized (e) {
            return e.childCount;
        }
    }

    static void broadcast(ActorRuntime runtime, TbActorId parentId, Predicate<TbActorId> filter, TbActorMsg msg, boolean highPriority) {
        Objects.requireNonNull(parentId, "parent must not be null");
        Objects.requireNonNull(msg, "actor message must not be null");
        TbActorMailbox parent = runtime.actors.get(parentId);
        if (parent == null) {
            return;
        }
        for (TbActorMailbox child : list(parent)) {
            if (filter.test(child.getSelf())) {
                child.enqueue(msg, highPriority);
            }
        }
    }

    static List<TbActorId> filter(ActorRuntime runtime, TbActorId parentId, Predicate<TbActorId> childFilter) {
        Objects.requireNonNull(parentId, "parent must not be null");
        Objects.requireNonNull(childFilter, "childFilter must not be null");
        TbActorMailbox parent = runtime.actors.get(parentId);
        if (parent == null) {
            return List.of();
        }
        List<TbActorId> result = new ArrayList<>();
        for (TbActorMailbox child : list(parent)) {
            if (childFilter.test(child.getSelf())) {
                result.add(child.getSelf());
            }
        }
        return result;
    }
}
