package io.tbactors.benchmarks.support;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How far apart the machine's CPUs are right now: the round trip of one cache line between two spinning threads.
 *
 * <p>On the virtual machines we measure on, the host moves the guest's two virtual CPUs between its cores every few
 * minutes, and the guest cannot pin them. The round trip then switches between a few values (on the 2-core benchmark
 * machine about 65 ns and about 300 ns), and while it is high a throughput row runs up to 2x slower, or for some
 * runtimes faster (BENCHMARKS.md, "Where the CPUs are: the cause of the two modes"). {@link PlacementProfiler} measures it
 * before and after every measured iteration so that {@code rounds.sh} can tell the iterations apart.
 */
public final class PlacementProbe {

    /** Round trips per batch: about a millisecond where the line travels fast. */
    static final int ROUND_TRIPS_PER_BATCH = 10_000;
    /** Batches per probe; the probe reports their median, so a batch interrupted by another thread does not count. */
    static final int BATCHES = 7;

    private PlacementProbe() {
    }

    /**
     * Spins this thread against one more for a few milliseconds (both CPUs of a 2-core machine).
     *
     * @return the median round trip of a cache line between the two threads, in nanoseconds
     */
    public static long roundTripNanos() {
        // the line the two threads pass back and forth, away from its neighbours
        PaddedCounter line = new PaddedCounter();
        long total = (long) ROUND_TRIPS_PER_BATCH * (BATCHES + 1);
        Thread echo = new Thread(() -> {
            for (long v = 1; v < 2 * total; v += 2) {
                while (line.get() != v) {
                    Thread.onSpinWait();
                }
                line.set(v + 1);
            }
        }, "placement-probe");
        echo.setDaemon(true);
        echo.start();
        long[] batches = new long[BATCHES];
        long v = 0;
        // the first batch lets the two threads settle on their CPUs; it is not counted
        for (int b = -1; b < BATCHES; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < ROUND_TRIPS_PER_BATCH; i++) {
                line.set(v + 1);
                while (line.get() != v + 2) {
                    Thread.onSpinWait();
                }
                v += 2;
            }
            if (b >= 0) {
                batches[b] = (System.nanoTime() - start) / ROUND_TRIPS_PER_BATCH;
            }
        }
        try {
            echo.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Arrays.sort(batches);
        return LatencyRecorder.percentile(batches, 50);
    }

    /** Prints a probe a second, for {@code seconds} seconds: {@code java -cp benchmarks.jar ...PlacementProbe 60}. */
    public static void main(String[] args) {
        int seconds = args.length == 0 ? 10 : Integer.parseInt(args[0]);
        for (int s = 0; s < seconds; s++) {
            System.out.println(System.currentTimeMillis() / 1000 + "\t" + roundTripNanos());
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** An {@link AtomicLong} with no other field on its cache line. */
    @SuppressWarnings({"unused", "serial"})
    private static final class PaddedCounter extends AtomicLong {
        private long p1;
        private long p2;
        private long p3;
        private long p4;
        private long p5;
        private long p6;
        private long p7;
    }
}
