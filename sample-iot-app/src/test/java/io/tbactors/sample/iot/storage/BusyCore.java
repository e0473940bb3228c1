package io.tbactors.sample.iot.storage;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JVM that keeps one core busy, for {@link H2HistoryCeilingBenchmark#h2AloneBesideABusyCore}: either with arithmetic
 * in registers that touches almost no memory ({@code registers}: what a busy neighbouring core costs apart from the
 * caches and memory the two share), or with small maps allocated at a high rate, some kept for a while, and random
 * reads over a table larger than a core's cache ({@code memory}: work of the kind the app's parsing and rules do). It
 * prints {@code busy} once its loop is compiled, then runs until it is destroyed.
 */
final class BusyCore {

    private BusyCore() {
    }

    /**
     * Starts a busy JVM and waits until its loop runs compiled.
     *
     * @param launcher words put before the JVM's command ({@code taskset -c 0}), or none
     * @param mode {@code registers} or {@code memory}
     * @return the JVM's process; destroy it to free the core
     */
    static Process start(List<String> launcher, String mode) throws IOException {
        Process process = new ProcessBuilder(H2HistoryRows.javaCommand(launcher, List.of("-Xms256m", "-Xmx256m",
                "-XX:+AlwaysPreTouch", "-XX:ParallelGCThreads=1", "-XX:ConcGCThreads=1"), BusyCore.class, mode))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"busy".equals(line)) {
            process.destroyForcibly();
            throw new IllegalStateException("the busy JVM ended before its loop ran (its errors are in the test's log)");
        }
        return process;
    }

    /**
     * The busy loop.
     *
     * @param args {@code registers} or {@code memory}
     */
    public static void main(String[] args) {
        boolean memory = switch (args.length == 1 ? args[0] : "") {
            case "registers" -> false;
            case "memory" -> true;
            default -> throw new IllegalArgumentException("BusyCore takes registers or memory, got " + List.of(args));
        };
        // the protocol with the test is this JVM's output: one line, busy
        PrintStream out = System.out;
        Object[] kept = new Object[200_000];
        int[] table = new int[memory ? 6 * 1024 * 1024 : 1];
        long x = 1;
        long announceAt = System.nanoTime() + 1_000_000_000L;
        boolean announced = false;
        for (long i = 0; ; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            if (memory) {
                Map<String, Object> reading = new HashMap<>(4);
                reading.put("b", x);
                kept[(int) (i % kept.length)] = reading;
                for (int r = 0; r < 4; r++) {
                    table[(int) ((x >>> (8 * r + 16)) % table.length)]++;
                }
            }
            if ((i & 0xFFFFF) == 0 && !announced && System.nanoTime() > announceAt) {
                out.println("busy");
                out.flush();
                announced = true;
            }
            if (x == 42) {
                // never true in practice; it keeps the loop's arithmetic from being optimised away
                out.println(i + " " + table[0]);
            }
        }
    }
}
