package io.tbactors.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShapeTest {

    @Test
    void onlyTheManyActorShapeWarmsUpLonger() {
        assertThat(Shape.parse("100000x10").warmupIterations()).isEqualTo(Shape.MANY_ACTORS_WARMUP_ITERATIONS);
        assertThat(Shape.parse("1x1000000").warmupIterations()).isEqualTo(ThroughputBenchmark.WARMUP_ITERATIONS);
        assertThat(Shape.parse("10x100000").warmupIterations()).isEqualTo(ThroughputBenchmark.WARMUP_ITERATIONS);
        assertThat(Shape.parse("1000x1000").warmupIterations()).isEqualTo(ThroughputBenchmark.WARMUP_ITERATIONS);
        assertThat(Shape.MANY_ACTORS_WARMUP_ITERATIONS).isGreaterThan(ThroughputBenchmark.WARMUP_ITERATIONS);
    }

    @Test
    void aShapeWithoutOneSeparatorIsRefused() {
        assertThatThrownBy(() -> Shape.parse("100000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ACTORSxMESSAGES");
    }
}
