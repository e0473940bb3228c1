package io.tbactors.core.dispatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Actor turns counted per thread: each thread of a {@link NamedThreadFactory} owns a {@link Cell} that only it writes,
 * with a plain store and no locked instruction, so a turn never touches a counter shared with other threads. The total
 * is the live cells plus what the threads that ended had counted.
 */
final class TurnCounters {

    private final Set<Cell> live = ConcurrentHashMap.newKeySet();
    private final AtomicLong retired = new AtomicLong();

    /** @return a cell for a new thread */
    Cell newCell() {
        Cell cell = new Cell();
        live.add(cell);
        return cell;
    }

    /** @param cell the cell of a thread that ends; its count is kept */
    void retire(Cell cell) {
        if (live.remove(cell)) {
            retired.addAndGet(cell.turns());
        }
    }

    /** @return turns counted by every thread so far */
    long total() {
        long sum = retired.get();
        for (Cell cell : live) {
            sum += cell.turns();
        }
        return sum;
    }

    /** One thread's count: written by that thread only, read by anyone. */
    static final class Cell {
        private static final VarHandle TURNS;

        static {
            try {
                TURNS = MethodHandles.lookup().findVarHandle(Cell.class, "turns", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long turns;

        /** Counts one turn; called by the owning thread only. */
        void increment() {
            TURNS.setOpaque(this, turns + 1);
        }

        long turns() {
            return (long) TURNS.getOpaque(this);
        }
    }
}
