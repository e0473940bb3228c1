package io.tbactors.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

    @Test
    void percentilesUseTheNearestRank() {
        LatencyRecorder recorder = new LatencyRecorder(1000);
        for (long v = 100; v >= 1; v--) {
            recorder.record(v);
        }
        long[] sorted = recorder.sortedCopy();

        assertThat(LatencyRecorder.percentile(sorted, 50)).isEqualTo(50);
        assertThat(LatencyRecorder.percentile(sorted, 99)).isEqualTo(99);
        assertThat(LatencyRecorder.percentile(sorted, 100)).isEqualTo(100);
        assertThat(LatencyRecorder.percentile(new long[] {7}, 99)).isEqualTo(7);
    }

    @Test
    void samplesPastTheCapacityAreDroppedAndResetForgetsAll() {
        LatencyRecorder recorder = new LatencyRecorder(2);
        recorder.record(1);
        recorder.record(2);
        recorder.record(3);

        assertThat(recorder.count()).isEqualTo(2);
        recorder.reset();
        assertThat(recorder.count()).isZero();
        assertThatThrownBy(() -> LatencyRecorder.percentile(recorder.sortedCopy(), 50)).isInstanceOf(IllegalArgumentException.class);
    }
}
