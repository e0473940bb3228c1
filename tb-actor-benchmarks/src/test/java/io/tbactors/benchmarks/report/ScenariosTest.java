package io.tbactors.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScenariosTest {

    @Test
    void onlyTheManyActorShapeWarmsUpLonger() {
        assertThat(Scenarios.warmupIterations("100000x10")).isEqualTo(Scenarios.MANY_ACTORS_WARMUP_ITERATIONS);
        assertThat(Scenarios.warmupIterations("1x1000000")).isEqualTo(Scenarios.WARMUP_ITERATIONS);
        assertThat(Scenarios.warmupIterations("10x100000")).isEqualTo(Scenarios.WARMUP_ITERATIONS);
        assertThat(Scenarios.warmupIterations("1000x1000")).isEqualTo(Scenarios.WARMUP_ITERATIONS);
        assertThat(Scenarios.MANY_ACTORS_WARMUP_ITERATIONS).isGreaterThan(Scenarios.WARMUP_ITERATIONS);
    }
}
