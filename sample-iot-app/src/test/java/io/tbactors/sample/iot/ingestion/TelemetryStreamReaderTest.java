package io.tbactors.sample.iot.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tbactors.sample.iot.actors.msg.TsEntry;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.web.ApiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The stream path of the telemetry parser never decides differently from the tree path: what it reads, it reads
 * as the tree path does; what the tree path refuses, it leaves to the tree path (which says why).
 */
class TelemetryStreamReaderTest {

    private final JsonMapper jsonMapper = JsonMapper.builder().build();
    private final DevicePayloadParser parser = new DevicePayloadParser(jsonMapper, new SampleProperties());
    private final TelemetryStreamReader reader = new TelemetryStreamReader(jsonMapper, ts -> ts < 4_000_000_000_000L);

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"s\":1}",
        "[{\"b\":1},{\"b\":2.5},{\"b\":true},{\"b\":\"x\"}]",
        "{\"ts\": 1700000000000, \"values\": {\"t\": 21.5, \"on\": false}}",
        "[{\"ts\": 2, \"values\": {\"a\": 1}}, {\"b\": 2}]",
        "{\"values\": {\"a\": 1}, \"ts\": 3}",
        "{\"t\": 1.0, \"n\": 10000000000, \"neg\": -4, \"tab\": \"a\\tb\"}"})
    void takesTheCommonBodiesAndReadsThemAsTheTreePathDoes(String body) {
        List<TsEntry> streamed = reader.read(bytes(body));

        assertThat(streamed).isNotNull().isEqualTo(parser.parseTelemetryTree(bytes(body)));
        assertThat(parser.parseTelemetry(bytes(body))).isEqualTo(streamed);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", " ", "true", "[]", "{}", "[1]", "{\"a\": ", "{\"a\": 1} {\"b\": 2}", "{\"a\": null}",
        "{\"a\": 1, \"a\": 2}", "{\"a\": 1, \"b\": 2, \"a\": 3}", "{\"ts\": 1, \"values\": {\"a\": 1, \"a\": 2}}",
        "{\"ts\": 5, \"a\": 1}", "{\"values\": {\"a\": 1}}", "{\"ts\": 1, \"values\": {\"a\": 1}, \"x\": 2}",
        "{\"ts\": -1, \"values\": {\"a\": 1}}", "{\"ts\": 1.5, \"values\": {\"a\": 1}}", "{\"ts\": 1, \"values\": {}}",
        "{\"ts\": 1, \"values\": 5}", "{\"ts\": 9223372036854775807, \"values\": {\"a\": 1}}", "{\"a\": 1e400}",
        "{\"big\": 123456789012345678901234567890}", "{\"o\": {\"a\": [1]}}", "{\"l\": [1, 2]}", "{\"a\": \"x\\u0000y\"}",
        "{\"a\\u0001\": 1}", "{\" \": 1}", "[{\"a\": 1}, 5]", "[{\"a\": 1}"})
    void leavesEverythingElseToTheTreePath(String body) {
        assertThat(reader.read(bytes(body))).isNull();
    }

    @Test
    void aReadingsValuesKeepTheirOrderAndCannotBeChanged() {
        List<TsEntry> streamed = reader.read(bytes(
                "[{\"z\": 1}, {\"z\": 1, \"a\": 2, \"m\": 3}, {\"ts\": 7, \"values\": {\"q\": 1, \"b\": 2}}]"));

        assertThat(streamed).extracting(e -> List.copyOf(e.values().keySet()))
                .containsExactly(List.of("z"), List.of("z", "a", "m"), List.of("q", "b"));
        for (TsEntry entry : streamed) {
            assertThatThrownBy(() -> entry.values().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\": null}", "{\"a\": 1e400}", "{\"ts\": 9223372036854775807, \"values\": {\"a\": 1}}", "[]",
        "{\"a\\u0001\": 1}", "{\"a\": \"x\\u0000y\"}", "[{\"a\": 1}, 5]"})
    void aBodyTheTreePathRefusesGetsTheTreePathsAnswer(String body) {
        Throwable viaParser = catchThrowable(() -> parser.parseTelemetry(bytes(body)));
        Throwable viaTree = catchThrowable(() -> parser.parseTelemetryTree(bytes(body)));

        assertThat(viaParser).isInstanceOf(ApiException.class);
        assertThat(withoutClock(viaParser.getMessage())).isEqualTo(withoutClock(viaTree.getMessage()));
    }

    /** A time-window message names the server's clock, which moves between the two calls. */
    private static String withoutClock(String message) {
        return message.replaceAll("server's clock \\(\\d+\\)", "server's clock (now)");
    }

    @org.junit.jupiter.api.Test
    void anEightThousandReadingBodyIsReadAsAStream() {
        String body = "[" + String.join(",", Collections.nCopies(8000, "{\"b\":1}")) + "]";

        List<TsEntry> streamed = reader.read(bytes(body));

        assertThat(streamed).hasSize(8000).isEqualTo(parser.parseTelemetryTree(bytes(body)));
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
