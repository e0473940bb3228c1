package io.tbactors.benchmarks.report;

import io.tbactors.benchmarks.support.Impl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report's rows, in order, with the targets of issue 5. */
public final class Scenarios {

    /** Throughput shapes, as the benchmark's {@code shape} parameter names them. */
    public static final List<String> SHAPES = List.of("1x1000000", "10x100000", "1000x1000", "100000x10");

    /** Producer thread counts, as the benchmark's {@code producers} parameter names them. */
    public static final List<Integer> PRODUCERS = List.of(1, 2);

    private static final Target THROUGHPUT = new Target(2.0, null, null);
    private static final Target ONE_ACTOR_THROUGHPUT = new Target(2.0, null, 0.8);
    private static final Target LATENCY_P50 = new Target(null, 1.0, null);
    private static final Target MEMORY = new Target(null, 0.4, null);
    private static final double MILLION = 1e6;
    private static final double THOUSAND = 1e3;

    private Scenarios() {
    }

    /**
     * @param m the figures of a run
     * @return one row per scenario, in the report's order
     */
    public static List<Row> rows(Measurements m) {
        List<Row> rows = new ArrayList<>();
        for (int producers : PRODUCERS) {
            for (String shape : SHAPES) {
                String key = Measurements.throughput(shape, producers);
                Target target = shape.startsWith("1x") ? ONE_ACTOR_THROUGHPUT : THROUGHPUT;
                rows.add(new Row(throughputLabel(shape, producers), "M msg/s", Row.Direction.HIGHER_IS_BETTER,
                        scaled(m.get(key, Impl.TB), MILLION), scaled(m.get(key, Impl.PEKKO), MILLION),
                        scaled(m.get(key, Impl.LIMIT), MILLION), target));
            }
        }
        rows.add(new Row("ping-pong round trip, p50", "us", Row.Direction.LOWER_IS_BETTER, m.get(Measurements.PING_PONG_P50, Impl.TB),
                m.get(Measurements.PING_PONG_P50, Impl.PEKKO), null, LATENCY_P50));
        rows.add(new Row("ping-pong round trip, p99", "us", Row.Direction.LOWER_IS_BETTER, m.get(Measurements.PING_PONG_P99, Impl.TB),
                m.get(Measurements.PING_PONG_P99, Impl.PEKKO), null, Target.NONE));
        rows.add(new Row("actor creation under one parent", "K actors/s", Row.Direction.HIGHER_IS_BETTER,
                scaled(m.get(Measurements.CREATION, Impl.TB), THOUSAND), scaled(m.get(Measurements.CREATION, Impl.PEKKO), THOUSAND),
                null, Target.NONE));
        rows.add(new Row("idle actor heap, " + count(m.idleActors()) + " actors", "B/actor", Row.Direction.LOWER_IS_BETTER,
                m.get(Measurements.MEMORY, Impl.TB), m.get(Measurements.MEMORY, Impl.PEKKO), null, MEMORY));
        return rows;
    }

    /**
     * @param shape e.g. {@code 1000x1000}
     * @param producers producer threads
     * @return e.g. {@code 1K actors x 1K msgs, 2 producers}
     */
    static String throughputLabel(String shape, int producers) {
        String[] parts = shape.split("x");
        int actors = Integer.parseInt(parts[0]);
        return count(actors) + (actors == 1 ? " actor x " : " actors x ") + count(Integer.parseInt(parts[1])) + " msgs, "
                + producers + (producers == 1 ? " producer" : " producers");
    }

    /**
     * @param n a count
     * @return it with K or M for exact thousands and millions, e.g. {@code 100K}
     */
    static String count(int n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) {
            return n / 1_000_000 + "M";
        }
        if (n >= 1_000 && n % 1_000 == 0) {
            return n / 1_000 + "K";
        }
        return String.format(Locale.ROOT, "%d", n);
    }

    private static Double scaled(Double value, double unit) {
        return value == null ? null : value / unit;
    }
}
