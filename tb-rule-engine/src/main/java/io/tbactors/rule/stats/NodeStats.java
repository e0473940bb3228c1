package io.tbactors.rule.stats;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.tbactors.rule.TbMsg;

/**
 * One node's figures (messages in, out by relation, failures, processing time) and, in debug mode, its last
 * messages in and out, at most a bounded number. Updated by the node's actor and by the threads that complete its
 * messages; read by the endpoint.
 */
public final class NodeStats {

    private final String type;
    private final int debugCapacity;
    private final RuleNodeMeters.NodeMeters meters;
    private final LongAdder in = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder processed = new LongAdder();
    private final LongAdder processingNanos = new LongAdder();
    private final Map<String, LongAdder> out = new ConcurrentHashMap<>();
    private final ArrayDeque<DebugEvent> debugEvents;
    private volatile boolean debug;

    NodeStats(String type, int debugCapacity, RuleNodeMeters.NodeMeters meters) {
        this.type = type;
        this.debugCapacity = debugCapacity;
        this.meters = meters;
        this.debugEvents = new ArrayDeque<>(Math.min(debugCapacity, 16));
    }

    /** @param msg came in */
    public void in(TbMsg msg) {
        in.increment();
        meters.in();
        if (debug) {
            debug(new DebugEvent(System.currentTimeMillis(), "IN", msg.id(), msg.type(), msg.data(), msg.metadata(), List.of(), null));
        }
    }

    /**
     * @param msg went out
     * @param relations on these
     * @param error why the node failed, or null
     * @param nanos how long the node took with it
     */
    public void out(TbMsg msg, List<String> relations, String error, long nanos) {
        for (String relation : relations) {
            out.computeIfAbsent(relation, r -> new LongAdder()).increment();
            meters.out(relation);
        }
        if (error != null) {
            failures.increment();
            meters.failure();
        }
        processed.increment();
        processingNanos.add(nanos);
        meters.processed(nanos);
        if (debug) {
            debug(new DebugEvent(System.currentTimeMillis(), "OUT", msg.id(), msg.type(), msg.data(), msg.metadata(),
                    List.copyOf(relations), error));
        }
    }

    private void debug(DebugEvent event) {
        synchronized (debugEvents) {
            if (debugEvents.size() == debugCapacity) {
                debugEvents.pollFirst();
            }
            debugEvents.addLast(event);
        }
    }

    /** @param enabled whether to keep the last messages in and out */
    public void setDebug(boolean enabled) {
        debug = enabled;
        if (!enabled) {
            synchronized (debugEvents) {
                debugEvents.clear();
            }
        }
    }

    /** @return the node type */
    public String getType() {
        return type;
    }

    /** @return whether debug mode is on */
    public boolean isDebug() {
        return debug;
    }

    /** @return messages in */
    public long getIn() {
        return in.sum();
    }

    /** @return messages out by relation, sorted */
    public Map<String, Long> getOut() {
        Map<String, Long> result = new TreeMap<>();
        out.forEach((relation, count) -> result.put(relation, count.sum()));
        return result;
    }

    /** @return failures */
    public long getFailures() {
        return failures.sum();
    }

    /** @return messages the node finished */
    public long getProcessed() {
        return processed.sum();
    }

    /** @return mean time from a message's call to its callback, milliseconds; 0 before the first */
    public double getMeanProcessingMillis() {
        long count = processed.sum();
        return count == 0 ? 0 : processingNanos.sum() / 1e6 / count;
    }

    /** @return the last messages in and out, oldest first (empty unless in debug mode) */
    public List<DebugEvent> getDebugEvents() {
        synchronized (debugEvents) {
            return new ArrayList<>(debugEvents);
        }
    }
}
