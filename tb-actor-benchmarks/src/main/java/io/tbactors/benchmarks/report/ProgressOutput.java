package io.tbactors.benchmarks.report;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;
import java.util.Locale;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * Sends JMH's full log to a delegate (a file) and one line per benchmark to the console, so a long run shows where
 * it is without burying the table. The caller owns the log's stream and closes it.
 */
public final class ProgressOutput implements OutputFormat {

    private final OutputFormat log;
    private final PrintStream console;
    private int started;
    private long benchmarkStart;

    /**
     * @param log receives everything JMH prints
     * @param console receives a line per benchmark
     */
    public ProgressOutput(OutputFormat log, PrintStream console) {
        this.log = log;
        this.console = console;
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        started++;
        benchmarkStart = System.nanoTime();
        String name = benchParams.getBenchmark();
        name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
        TreeMap<String, String> params = new TreeMap<>();
        for (String key : benchParams.getParamsKeys()) {
            params.put(key, benchParams.getParam(key));
        }
        console.printf(Locale.ROOT, "[%2d] %-45s %s ... ", started, name, params);
        console.flush();
        log.startBenchmark(benchParams);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        double seconds = (System.nanoTime() - benchmarkStart) / 1e9;
        if (result == null) {
            console.printf(Locale.ROOT, "FAILED after %.0f s (see the log)%n", seconds);
        } else {
            console.printf(Locale.ROOT, "done in %.0f s%n", seconds);
        }
        log.endBenchmark(result);
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        log.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration, IterationResult data) {
        log.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void startRun() {
        log.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        log.endRun(result);
    }

    @Override
    public void print(String s) {
        log.print(s);
    }

    @Override
    public void println(String s) {
        log.println(s);
    }

    @Override
    public void flush() {
        log.flush();
        console.flush();
    }

    /** JMH closes its output after each run; the report runs JMH several times, so only flush here. */
    @Override
    public void close() {
        flush();
    }

    @Override
    public void verbosePrintln(String s) {
        log.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        log.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        log.write(b);
    }
}
