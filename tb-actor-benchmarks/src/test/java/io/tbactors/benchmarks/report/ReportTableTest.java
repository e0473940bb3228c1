package io.tbactors.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tbactors.benchmarks.support.Impl;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTableTest {

    private static final Target AT_LEAST_TWICE_AND_NEAR_LIMIT = new Target(2.0, null, 0.8);

    @Test
    void ratioIsOursOverPekkoAndShareIsOursOverLimitForRates() {
        Row row = new Row("rate", "M msg/s", Row.Direction.HIGHER_IS_BETTER, 8.0, 2.0, 10.0, AT_LEAST_TWICE_AND_NEAR_LIMIT);

        assertThat(row.ratio()).isCloseTo(4.0, within(1e-9));
        assertThat(row.shareOfLimit()).isCloseTo(0.8, within(1e-9));
        assertThat(row.verdict()).isEqualTo("met");
    }

    @Test
    void shareIsLimitOverOursWhenLowerIsBetter() {
        Row row = new Row("latency", "us", Row.Direction.LOWER_IS_BETTER, 4.0, 5.0, 1.0, new Target(null, 1.0, null));

        assertThat(row.ratio()).isCloseTo(0.8, within(1e-9));
        assertThat(row.shareOfLimit()).isCloseTo(0.25, within(1e-9));
        assertThat(row.verdict()).isEqualTo("met");
    }

    @Test
    void aTargetIsMissedWhenAnyBoundFails() {
        Row tooSlowForTheLimit = new Row("rate", "M msg/s", Row.Direction.HIGHER_IS_BETTER, 8.0, 2.0, 12.0, AT_LEAST_TWICE_AND_NEAR_LIMIT);
        Row tooHeavy = new Row("heap", "B/actor", Row.Direction.LOWER_IS_BETTER, 300.0, 600.0, null, new Target(null, 0.4, null));

        assertThat(tooSlowForTheLimit.verdict()).isEqualTo("MISSED");
        assertThat(tooHeavy.verdict()).isEqualTo("MISSED");
    }

    @Test
    void aMissingFigureGivesNoVerdictAndNoRatio() {
        Row row = new Row("rate", "M msg/s", Row.Direction.HIGHER_IS_BETTER, 8.0, null, 10.0, AT_LEAST_TWICE_AND_NEAR_LIMIT);

        assertThat(row.ratio()).isNull();
        assertThat(row.complete()).isFalse();
        assertThat(row.verdict()).isEqualTo("n/a");
        assertThat(new Row("x", "u", Row.Direction.HIGHER_IS_BETTER, 1.0, 1.0, null, Target.NONE).verdict()).isEmpty();
    }

    @Test
    void renderedTableHasAlignedColumnsAndFormattedFigures() {
        String table = ReportTable.render(List.of(
                new Row("1 actor", "M msg/s", Row.Direction.HIGHER_IS_BETTER, 12.345, 3.0, 15.0, AT_LEAST_TWICE_AND_NEAR_LIMIT),
                new Row("heap", "B/actor", Row.Direction.LOWER_IS_BETTER, 123.4, 456.7, null, new Target(null, 0.4, null))));

        List<String> lines = table.lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines).allSatisfy(line -> assertThat(line).hasSameSizeAs(lines.get(0)).startsWith("|").endsWith("|"));
        assertThat(lines.get(0)).contains("scenario", "ours", "Pekko", "ratio", "limit", "share of limit");
        assertThat(lines.get(2)).contains("| 12.3 ", "| 3.00 ", "| 4.12x ", "| 0.82 ", "ratio >= 2.00, share >= 0.80", "| met ");
        assertThat(lines.get(3)).contains("| 123 ", "| 457 ", "| 0.27x ", "| - ", "ratio <= 0.40", "| met ");
    }

    @Test
    void scenariosTurnMessagesPerSecondIntoMillionsAndKeepTheIssueTargets() {
        Measurements m = new Measurements()
                .put(Measurements.throughput("1x1000000", 1), Impl.TB, 9_000_000)
                .put(Measurements.throughput("1x1000000", 1), Impl.PEKKO, 3_000_000)
                .put(Measurements.throughput("1x1000000", 1), Impl.LIMIT, 10_000_000)
                .put(Measurements.MEMORY, Impl.TB, 150)
                .put(Measurements.MEMORY, Impl.PEKKO, 500)
                .idleActors(1_000_000);

        List<Row> rows = Scenarios.rows(m);

        assertThat(rows).hasSize(12);
        Row first = rows.get(0);
        assertThat(first.scenario()).isEqualTo("1 actor x 1M msgs, 1 producer");
        assertThat(first.ours()).isCloseTo(9.0, within(1e-9));
        assertThat(first.shareOfLimit()).isCloseTo(0.9, within(1e-9));
        assertThat(first.verdict()).isEqualTo("met");
        assertThat(rows.get(7).scenario()).isEqualTo("100K actors x 10 msgs, 2 producers");
        assertThat(rows.get(7).verdict()).isEqualTo("n/a");
        Row memory = rows.get(11);
        assertThat(memory.scenario()).isEqualTo("idle actor heap, 1M actors");
        assertThat(memory.ratio()).isCloseTo(0.3, within(1e-9));
        assertThat(memory.verdict()).isEqualTo("met");
    }

    @Test
    void countsUseKAndMOnlyForRoundFigures() {
        assertThat(Scenarios.count(1_000_000)).isEqualTo("1M");
        assertThat(Scenarios.count(100_000)).isEqualTo("100K");
        assertThat(Scenarios.count(20_000)).isEqualTo("20K");
        assertThat(Scenarios.count(1_500)).isEqualTo("1500");
        assertThat(Scenarios.count(10)).isEqualTo("10");
    }
}
