package io.tbactors.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.benchmarks.creation.ActorCreationBenchmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Fork;

/**
 * The throughput scripts pass their forks' JVM flags themselves (so that jars built from other sources run with the
 * same heap), and the benchmarks name them in their {@link Fork} annotations: the three must not drift apart.
 */
class ForkFlagsTest {

    @Test
    void theAnnotationsAndTheScriptsGiveEveryForkTheSameHeap() throws IOException {
        List<String> flags = List.of(ThroughputBenchmark.FORK_FLAGS.split(" "));

        assertThat(flags).contains("-XX:+AlwaysPreTouch").anyMatch(f -> f.startsWith("-Xms")).anyMatch(f -> f.startsWith("-Xmx"));
        for (Class<?> benchmark : List.of(ThroughputBenchmark.class, MailboxQueueBenchmark.class, ActorCreationBenchmark.class)) {
            assertThat(benchmark.getAnnotation(Fork.class).jvmArgsAppend()).as(benchmark.getSimpleName()).containsExactlyElementsOf(flags);
        }
        for (String script : List.of("rounds.sh", "ab-throughput.sh")) {
            assertThat(Files.readString(Path.of(script))).as(script)
                    .contains("fork_flags=${FORK_FLAGS:-\"" + ThroughputBenchmark.FORK_FLAGS + "\"}")
                    .contains("-jvmArgsAppend \"$fork_flags\"");
        }
    }

    @Test
    void theHeapHasOneSizeSoThatEveryPageIsWrittenBeforeTheFirstRound() {
        List<String> flags = List.of(ThroughputBenchmark.FORK_FLAGS.split(" "));
        String min = flags.stream().filter(f -> f.startsWith("-Xms")).findFirst().orElseThrow().substring(4);
        String max = flags.stream().filter(f -> f.startsWith("-Xmx")).findFirst().orElseThrow().substring(4);

        assertThat(min).as("a heap that can grow past what -XX:+AlwaysPreTouch wrote gets fresh pages mid-run").isEqualTo(max);
    }
}
