package io.tbactors.sample.iot.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.tbactors.sample.iot.web.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

class DevicePayloadParserTest {

    private final DevicePayloadParser parser = new DevicePayloadParser(JsonMapper.builder().build());

    @Test
    void keyValuePairsBecomeOneEntryWithoutATimeAndTypedValues() {
        List<TsEntry> entries = parser.parseTelemetry(bytes("{\"t\": 21.5, \"n\": 3, \"on\": false, \"s\": \"x\", \"o\": {\"a\": [1]}}"));

        assertThat(entries).hasSize(1);
        assertThat(entries.get(0).ts()).isNull();
        assertThat(entries.get(0).values()).containsExactly(Map.entry("t", 21.5), Map.entry("n", 3L), Map.entry("on", false),
                Map.entry("s", "x"), Map.entry("o", Map.of("a", List.of(1))));
    }

    @Test
    void timedReadingsKeepTheirTimeAndOrder() {
        List<TsEntry> entries = parser.parseTelemetry(bytes("[{\"ts\": 2, \"values\": {\"a\": 1}}, {\"b\": 2}]"));

        assertThat(entries).extracting(TsEntry::ts).containsExactly(2L, null);
        assertThat(entries.get(1).values()).containsEntry("b", 2L);
    }

    @Test
    void anIntegerTooLargeForALongIsKeptAsADouble() {
        assertThat(parser.parseAttributes(bytes("{\"big\": 123456789012345678901234567890}")).get("big")).isInstanceOf(Double.class);
    }

    @Test
    void badBodiesAreRefusedWithAMessageThatSaysWhere() {
        assertBadRequest("", "Request body is empty");
        assertBadRequest("{\"a\": ", "Malformed JSON at line 1, column");
        assertBadRequest("true", "Body must be a JSON object of key-value pairs, got boolean");
        assertBadRequest("[1]", "[0] must be a JSON object");
        assertBadRequest("{\"ts\": -1, \"values\": {\"a\": 1}}", "'ts' must be a non-negative integer");
        assertBadRequest("{\"ts\": 1, \"values\": 5}", "values must be a JSON object");
        assertBadRequest("{\" \": 1}", "' ': keys must be 1 to 255 characters");
    }

    private void assertBadRequest(String body, String messageStart) {
        assertThatThrownBy(() -> parser.parseTelemetry(bytes(body)))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getStatus()).isEqualTo(HttpStatus.BAD_REQUEST))
                .hasMessageStartingWith(messageStart);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
