package io.tbactors.core;

import io.tbactors.api.TbActorMsg;
import io.tbactors.api.TbActorStopReason;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** Messages and bookkeeping shared by the runtime's tests. */
final class TestMsgs {

    private TestMsgs() {
    }

    /** Counts how each message ended: processed, or told why not (by reason). */
    static final class Outcomes {
        final LongAdder processed = new LongAdder();
        final LongAdder processedSum = new LongAdder();
        final Map<TbActorStopReason, LongAdder> stopped = new ConcurrentHashMap<>();

        long stoppedCount(TbActorStopReason reason) {
            LongAdder adder = stopped.get(reason);
            return adder == null ? 0 : adder.sum();
        }

        long stoppedTotal() {
            return stopped.values().stream().mapToLong(LongAdder::sum).sum();
        }

        long accountedFor() {
            return processed.sum() + stoppedTotal();
        }
    }

    /** A numbered message that records its fate exactly once, and fails the test if it gets two. */
    static final class Numbered implements TbActorMsg {
        final int sender;
        final long value;
        final Outcomes outcomes;
        private final AtomicInteger fates = new AtomicInteger();

        Numbered(int sender, long value, Outcomes outcomes) {
            this.sender = sender;
            this.value = value;
            this.outcomes = outcomes;
        }

        Numbered(long value, Outcomes outcomes) {
            this(0, value, outcomes);
        }

        void markProcessed() {
            recordFate();
            outcomes.processed.increment();
            outcomes.processedSum.add(value);
        }

        @Override
        public void onTbActorStopped(TbActorStopReason reason) {
            recordFate();
            outcomes.stopped.computeIfAbsent(reason, r -> new LongAdder()).increment();
        }

        private void recordFate() {
            if (fates.incrementAndGet() != 1) {
                throw new AssertionError("message " + value + " got a second fate");
            }
        }

        int fateCount() {
            return fates.get();
        }
    }

    /** A message with no payload. */
    record Ping() implements TbActorMsg {
    }
}
