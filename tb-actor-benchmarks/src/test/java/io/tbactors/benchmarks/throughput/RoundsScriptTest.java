package io.tbactors.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The arithmetic of {@code rounds.sh} ({@code rounds.py}), on a fork's JMH JSON made here: which iterations count by
 * their placement probes, and what the table makes of them.
 */
class RoundsScriptTest {

    @TempDir
    Path dir;

    /** Two iterations of a fork: rounds of 10 ms with the CPUs near (65 ns), of 20 ms with them far (300 ns after). */
    private Path fork(boolean withProbes) throws IOException {
        String secondary = withProbes
                ? ", \"secondaryMetrics\": {\"placement.before\": {\"rawData\": [[65.0, 66.0]]},"
                  + " \"placement.after\": {\"rawData\": [[64.0, 300.0]]}}"
                : "";
        String json = "[{\"primaryMetric\": {\"rawDataHistogram\": [[[[10.0, 3]], [[20.0, 2], [21.0, 1]]]]}" + secondary + "}]";
        Path file = dir.resolve(withProbes ? "fork.json" : "bare.json");
        Files.writeString(file, json);
        return file;
    }

    private static Run rounds(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", "rounds.py"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("rounds.py ended").isTrue();
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void anIterationWithAFarProbeIsSetAsideAndTheForkFigureComesFromTheOthers() throws Exception {
        Run run = rounds("fork", fork(true).toString(), "3", "10x100000", "2", "tb", "150");

        assertThat(run.exit()).as(run.output()).isZero();
        // a million messages in the median round: 10 ms counted, 20 ms set aside
        assertThat(run.output().strip()).isEqualTo("3\t10x100000\t2\ttb\t100.000\t1/2\t50.000\t65/64,66/300");
    }

    @Test
    void theForksOfOneRoundArePooled() throws Exception {
        // FORKS=2: JMH's JSON has one list of iterations per fork; the second fork's rounds of 30 ms count beside the
        // first fork's 10 ms, and its far iteration (300 ns before) is set aside with the first fork's
        Path twoForks = dir.resolve("two-forks.json");
        Files.writeString(twoForks, "[{\"primaryMetric\": {\"rawDataHistogram\": ["
                + "[[[10.0, 3]], [[20.0, 2], [21.0, 1]]],"
                + "[[[30.0, 4]], [[40.0, 1]]]]},"
                + " \"secondaryMetrics\": {\"placement.before\": {\"rawData\": [[65.0, 66.0], [70.0, 300.0]]},"
                + " \"placement.after\": {\"rawData\": [[64.0, 300.0], [68.0, 66.0]]}}}]");

        Run run = rounds("fork", twoForks.toString(), "2", "1x1000000", "1", "tb", "150");

        assertThat(run.exit()).as(run.output()).isZero();
        // counted: 10, 10, 10, 30, 30, 30, 30 ms (median 30: 33.333 M msg/s); set aside: 20, 20, 21, 40 (median 20.5)
        assertThat(run.output().strip())
                .isEqualTo("2\t1x1000000\t1\ttb\t33.333\t2/4\t48.780\t65/64,66/300;70/68,300/66");
    }

    @Test
    void withTheBoundOffEveryIterationCounts() throws Exception {
        Run run = rounds("fork", fork(true).toString(), "1", "1x1000000", "1", "pekko", "off");

        assertThat(run.exit()).as(run.output()).isZero();
        // all six rounds count (10, 10, 10, 20, 20, 21 ms): their median is 15 ms, a million messages in it 66.667 M msg/s
        assertThat(run.output().strip()).isEqualTo("1\t1x1000000\t1\tpekko\t66.667\t2/2\t-\t65/64,66/300");
    }

    @Test
    void aForkWithoutProbesIsRefusedUnlessTheBoundIsOff() throws Exception {
        Run refused = rounds("fork", fork(false).toString(), "1", "1x1000000", "1", "tb", "150");
        Run off = rounds("fork", fork(false).toString(), "1", "1x1000000", "1", "tb", "off");

        assertThat(refused.exit()).isNotZero();
        assertThat(refused.output()).contains("no placement probes").contains("PLACEMENT_MAX_NS=off");
        assertThat(off.output().strip()).isEqualTo("1\t1x1000000\t1\ttb\t66.667\t2/2\t-\t-,-");
    }

    @Test
    void theTableTakesTheMedianOfTheCountedForksAndReportsWhatWasSetAside() throws Exception {
        Path results = dir.resolve("results.tsv");
        Files.writeString(results, String.join("\n",
                "1\t1x1000000\t1\ttb\t100.000\t5/5\t-\t",
                "1\t1x1000000\t1\tpekko\t40.000\t4/5\t20.000\t",
                "2\t1x1000000\t1\ttb\t-\t0/5\t45.000\t",
                "2\t1x1000000\t1\ttb\t120.000\t5/5\t-\t",
                "2\t1x1000000\t1\tpekko\t50.000\t5/5\t-\t",
                "3\t1x1000000\t1\ttb\t110.000\t5/5\t-\t",
                "3\t1x1000000\t1\tpekko\t45.000\t5/5\t-\t",
                // a line of the format before the probes: counted as it is
                "4\t1x1000000\t1\ttb\t90.000") + "\n");

        Run run = rounds("table", results.toString());

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("| 1x1000000, 1p | 105.00 (1.33x, n=4) | 45.00 (1.25x, n=3) | 2.33x |")
                .contains("Iterations counted (both placement probes within the bound) / measured: tb 15/20, pekko 14/15")
                .contains("| 1x1000000, 1p | 45.00 (n=1) | 20.00 (n=1) |");
    }

    @Test
    void theSpreadWithoutTheRoundsCommonSpeedTakesOutWhatEveryRuntimeOfARoundMet() throws Exception {
        // round 2 ran twice as fast for both runtimes (the machine, not the runtimes); round 3 lacks Pekko's figure
        Path results = dir.resolve("results.tsv");
        Files.writeString(results, String.join("\n",
                "1\t10x100000\t2\ttb\t100.000\t3/3\t-\t",
                "1\t10x100000\t2\tpekko\t25.000\t3/3\t-\t",
                "1\t10x100000\t2\tlimit\t300.000\t3/3\t-\t",
                "2\t10x100000\t2\ttb\t200.000\t3/3\t-\t",
                "2\t10x100000\t2\tpekko\t50.000\t3/3\t-\t",
                "2\t10x100000\t2\tlimit\t310.000\t3/3\t-\t",
                "3\t10x100000\t2\ttb\t120.000\t3/3\t-\t",
                "3\t10x100000\t2\tpekko\t-\t0/3\t20.000\t") + "\n");

        Run run = rounds("table", results.toString());

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("| 10x100000, 2p | 120.00 (2.00x, n=3) | 37.50 (2.00x, n=2) | 305.00 (1.03x, n=2) |")
                .contains("Spread without the round's common speed")
                .contains("| 10x100000, 2p | 1.00x (n=2) | 1.00x (n=2) |");
    }

    @Test
    void aForkWithoutAResultIsReportedAsFailed() throws Exception {
        Path empty = dir.resolve("failed.json");
        Files.writeString(empty, "[\n]\n");

        Run run = rounds("fork", empty.toString(), "2", "10x100000", "1", "tb-padded", "150");

        assertThat(run.exit()).isNotZero();
        assertThat(run.output()).contains("failed.json: the fork has no result: it failed");
    }

    /**
     * The whole script with a {@code java} on the path that stands for JMH: ours gives a result, Pekko fails as a round
     * that does not finish does. The table is still printed, the failure is listed, and the run ends with exit 1.
     */
    @Test
    void aFailedForkIsListedAfterTheTableAndTheRunEndsWithExit1() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path fakeJava = bin.resolve("java");
        String json = Files.readString(fork(false)).replace("\"", "\\\"");
        Files.writeString(fakeJava, String.join("\n",
                "#!/usr/bin/env bash",
                "echo \"$*\" >> \"$(dirname \"$0\")/args.txt\"",
                "out=''; impl=''",
                "while [ $# -gt 0 ]; do",
                "  case \"$1\" in -rff) out=$2; shift;; impl=*) impl=${1#impl=};; esac; shift",
                "done",
                "if [ \"$impl\" = tb ]; then echo \"" + json + "\" > \"$out\"; exit 0; fi",
                "echo 'java.lang.IllegalStateException: Round not finished after 120 s: 4 part(s) missing'",
                "echo '[]' > \"$out\"",
                "exit 1",
                ""));
        assertThat(fakeJava.toFile().setExecutable(true)).isTrue();
        Path jar = Files.writeString(dir.resolve("benchmarks.jar"), "not read by the stand-in");
        Path out = dir.resolve("out");
        ProcessBuilder builder = new ProcessBuilder("bash", "rounds.sh", "1").redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("JAR", jar.toString());
        builder.environment().put("OUT", out.toString());
        builder.environment().put("IMPLS", "tb,pekko");
        builder.environment().put("SHAPES", "1x1000000");
        builder.environment().put("PRODUCERS", "1");
        builder.environment().put("PLACEMENT_MAX_NS", "off");
        builder.environment().put("FORKS", "2");
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("rounds.sh ended").isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(process.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("| 1x1000000, 1p | 66.67")
                .contains("Forks that failed")
                .contains("round 1, 1x1000000, 1p, pekko: java.lang.IllegalStateException: Round not finished after 120 s");
        assertThat(Files.readString(out.resolve("failed.txt"))).contains("r1-pekko-1x1000000-1p.log");
        // FORKS: every runtime's JMH run of the round gets that many forks
        assertThat(Files.readAllLines(bin.resolve("args.txt"))).hasSize(2).allMatch(args -> args.contains(" -f 2 "));
    }

    @Test
    void aBadForkCountIsRefusedWithWhatIsAllowed() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "rounds.sh", "1").redirectErrorStream(true);
        builder.environment().put("FORKS", "0");
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("rounds.sh ended").isTrue();

        assertThat(process.exitValue()).isEqualTo(2);
        assertThat(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains("FORKS must be a positive whole number, got '0'");
    }

    private record Run(int exit, String output) {
    }
}
