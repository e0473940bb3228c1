package io.tbactors.benchmarks.support;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Reads the live heap: used bytes after full collections, repeated until the figure settles. */
public final class HeapMeter {

    private static final int MAX_ROUNDS = 10;
    private static final double SETTLED = 0.005;

    private HeapMeter() {
    }

    /** @return heap bytes in use once garbage is collected */
    public static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long previous = Long.MAX_VALUE;
        long used = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            used = memory.getHeapMemoryUsage().getUsed();
            if (round > 1 && Math.abs(previous - used) <= previous * SETTLED) {
                break;
            }
            previous = used;
        }
        return used;
    }
}
