package io.tbactors.benchmarks;

import io.tbactors.benchmarks.creation.ActorCreationBenchmark;
import io.tbactors.benchmarks.memory.IdleActorMemoryBenchmark;
import io.tbactors.benchmarks.pingpong.PingPongBenchmark;
import io.tbactors.benchmarks.report.Measurements;
import io.tbactors.benchmarks.report.ProgressOutput;
import io.tbactors.benchmarks.report.ReportTable;
import io.tbactors.benchmarks.report.Row;
import io.tbactors.benchmarks.report.Scenarios;
import io.tbactors.benchmarks.support.Runtimes;
import io.tbactors.benchmarks.support.SideMetricsProfiler;
import io.tbactors.benchmarks.throughput.Shape;
import io.tbactors.benchmarks.throughput.ThroughputBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.pekko.Version;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark of this module through JMH, writes JMH's JSON results, and prints one table: each scenario on
 * our runtime, on Pekko and at the bare-queue limit, with the ratio, the share of the limit and the target.
 *
 * <p>JMH runs one scenario at a time with all its implementations back to back, so that ours, Pekko and the limit
 * of one row meet the same background load on a shared machine.
 *
 * <p>{@code --quick} runs each benchmark for a moment only (and weighs fewer idle actors): it proves that everything
 * runs, its figures are not for comparison. Exit status 1 when a benchmark failed or a figure is missing.
 */
public final class BenchmarkReport {

    private static final int QUICK_IDLE_ACTORS = 20_000;
    private static final long QUICK_ITERATION_MILLIS = 200;

    private BenchmarkReport() {
    }

    /**
     * @param args {@code [--quick] [--include REGEX] [--json FILE] [--log FILE]}
     * @throws Exception when JMH cannot run or a file cannot be written
     */
    public static void main(String[] args) throws Exception {
        Arguments arguments = Arguments.parse(args);
        if (arguments.help) {
            System.out.println(Arguments.USAGE);
            return;
        }
        System.exit(run(arguments, System.out));
    }

    private static int run(Arguments arguments, PrintStream out) throws IOException, RunnerException {
        Path outputDir = defaultOutputDir();
        Path json = arguments.json != null ? Path.of(arguments.json) : outputDir.resolve("jmh-result.json");
        Path log = arguments.log != null ? Path.of(arguments.log) : outputDir.resolve("jmh-run.log");
        String started = OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        double loadBefore = loadAverage();
        long start = System.nanoTime();

        out.printf(Locale.ROOT, "TB Actors benchmarks (%s mode): JMH log in %s, JSON results in %s%n",
                arguments.quick ? "quick" : "full", log, json);
        List<RunResult> results = new ArrayList<>();
        try (PrintStream logStream = new PrintStream(Files.newOutputStream(log), true, StandardCharsets.UTF_8)) {
            ProgressOutput progress = new ProgressOutput(OutputFormatFactory.createFormatInstance(logStream, VerboseMode.NORMAL), out);
            for (Group group : groups(arguments)) {
                results.addAll(new Runner(group.options(arguments).build(), progress).run());
            }
        }
        ResultFormatFactory.getInstance(ResultFormatType.JSON, json.toString()).writeOut(results);
        double minutes = (System.nanoTime() - start) / 60e9;

        List<Row> rows = Scenarios.rows(Measurements.from(results));
        out.println();
        out.printf(Locale.ROOT, "Started %s; JDK %s (%s); %d cores; %d dispatcher threads on both runtimes; Pekko %s%n",
                started, System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), Runtimes.dispatcherThreads(), Version.current());
        out.printf(Locale.ROOT, "Mode: %s; wall time %.1f min; load average %.2f before, %.2f after%n",
                arguments.quick ? "quick (figures prove the benchmarks run, nothing more)" : "full", minutes, loadBefore, loadAverage());
        out.println("ratio = ours / Pekko (higher is better for rates, lower for latency and bytes); "
                + "share of limit = how close ours gets to the bare-queue limit (1.00 = at the limit)");
        out.println();
        out.print(ReportTable.render(rows));

        List<String> missing = new ArrayList<>();
        for (Row row : rows) {
            if (!row.complete()) {
                missing.add(row.scenario());
            }
        }
        if (arguments.include == null && !missing.isEmpty()) {
            out.println();
            out.println("Incomplete: no figure for " + missing + "; see " + log);
            return 1;
        }
        return 0;
    }

    /** @return the scenarios to run, each with all its implementations, filtered by {@code --include} */
    private static List<Group> groups(Arguments arguments) {
        List<Group> groups = new ArrayList<>();
        for (int producers : Scenarios.PRODUCERS) {
            for (String shape : Scenarios.SHAPES) {
                Map<String, String> params = new LinkedHashMap<>();
                params.put("shape", shape);
                params.put("producers", Integer.toString(producers));
                groups.add(new Group(ThroughputBenchmark.class, params, Shape.parse(shape).warmupIterations()));
            }
        }
        groups.add(new Group(PingPongBenchmark.class, Map.of(), null));
        groups.add(new Group(ActorCreationBenchmark.class, Map.of(), null));
        groups.add(new Group(IdleActorMemoryBenchmark.class,
                arguments.quick ? Map.of("actors", Integer.toString(QUICK_IDLE_ACTORS)) : Map.of(), null));
        if (arguments.include == null) {
            return groups;
        }
        Pattern include = Pattern.compile(arguments.include);
        return groups.stream().filter(g -> include.matcher(g.describe()).find()).toList();
    }

    /** @return the folder of the benchmarks jar (its target folder), or the working folder */
    private static Path defaultOutputDir() {
        try {
            Path location = Path.of(BenchmarkReport.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = location.getParent();
            return dir != null && Files.isDirectory(dir) ? dir : Path.of(".");
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return Path.of(".");
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * One scenario: a benchmark class with some parameters fixed; JMH runs each implementation in turn.
     *
     * @param benchmark the benchmark class
     * @param params the fixed parameters
     * @param warmupIterations warm-up iterations to run, or null for the benchmark's own {@code @Warmup}
     */
    private record Group(Class<?> benchmark, Map<String, String> params, Integer warmupIterations) {

        String describe() {
            StringBuilder text = new StringBuilder(benchmark.getSimpleName());
            params.forEach((key, value) -> text.append(' ').append(key).append('=').append(value));
            return text.toString();
        }

        ChainedOptionsBuilder options(Arguments arguments) {
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
                    .addProfiler(SideMetricsProfiler.class)
                    .shouldFailOnError(false);
            params.forEach(options::param);
            String threads = System.getProperty(Runtimes.THREADS_PROPERTY);
            if (threads != null) {
                // prepend: the benchmarks' own @Fork(jvmArgsAppend) still applies
                options.jvmArgsPrepend("-D" + Runtimes.THREADS_PROPERTY + "=" + threads);
            }
            if (warmupIterations != null) {
                options.warmupIterations(warmupIterations);
            }
            if (arguments.quick) {
                options.warmupIterations(0)
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(QUICK_ITERATION_MILLIS));
            }
            return options;
        }
    }

    /** The command line. */
    static final class Arguments {
        static final String USAGE = String.join("\n",
                "Usage: java -jar benchmarks.jar [--quick] [--include REGEX] [--json FILE] [--log FILE]",
                "  --quick          one short iteration per benchmark, fewer idle actors: proves everything runs",
                "  --include REGEX  only the scenarios whose description matches, e.g. 'PingPong' or",
                "                   'Throughput.*shape=1x1000000' (no completeness check)",
                "  --json FILE      JMH JSON results (default: jmh-result.json beside the jar)",
                "  --log FILE       JMH's full log (default: jmh-run.log beside the jar)",
                "  -Dtbactors.bench.threads=N before -jar sets the dispatcher threads (default: cores, at least 2)");

        boolean quick;
        boolean help;
        String include;
        String json;
        String log;

        static Arguments parse(String[] args) {
            Arguments a = new Arguments();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> a.quick = true;
                    case "--help", "-h" -> a.help = true;
                    case "--include" -> a.include = value(args, ++i);
                    case "--json" -> a.json = value(args, ++i);
                    case "--log" -> a.log = value(args, ++i);
                    default -> throw new IllegalArgumentException("Unknown argument '" + args[i] + "'\n" + USAGE);
                }
            }
            return a;
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) {
                throw new IllegalArgumentException("Missing value after " + args[i - 1] + "\n" + USAGE);
            }
            return args[i];
        }
    }
}
