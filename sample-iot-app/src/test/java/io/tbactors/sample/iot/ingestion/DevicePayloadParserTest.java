package io.tbactors.sample.iot.ingestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tbactors.sample.iot.actors.msg.TsEntry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.sample.iot.web.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

class DevicePayloadParserTest {

    private final SampleProperties properties = new SampleProperties();
    private final DevicePayloadParser parser = new DevicePayloadParser(JsonMapper.builder().build(), properties);

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

    @Test
    void aNumberBeyondADoublesRangeIsRefusedRatherThanStoredAsInfinity() {
        assertBadRequest("{\"t\": 1e400}", "'t' must be a finite number");
        assertBadRequest("{\"t\": -1e400}", "'t' must be a finite number");
        assertBadRequest("{\"o\": {\"deep\": [1, 1e400]}}", "'o'.'deep'[1] must be a finite number");
    }

    @Test
    void aTimeTooFarAheadIsRefusedNamingTheWindow() {
        assertBadRequest("{\"ts\": 9223372036854775807, \"values\": {\"a\": 1}}", "'ts' is 9223372036854775807, more than PT24H ahead");
        long inTwoDays = System.currentTimeMillis() + Duration.ofDays(2).toMillis();
        assertBadRequest("[{\"ts\": " + inTwoDays + ", \"values\": {\"a\": 1}}]", "[0].'ts' is " + inTwoDays);
        long inAnHour = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
        assertThat(parser.parseTelemetry(bytes("{\"ts\": " + inAnHour + ", \"values\": {\"a\": 1}}")).get(0).ts()).isEqualTo(inAnHour);
    }

    @Test
    void aTimeOlderThanTheConfiguredAgeIsRefusedAndWithoutOneAnyPastTimeIsAccepted() {
        assertThat(parser.parseTelemetry(bytes("{\"ts\": 1, \"values\": {\"a\": 1}}")).get(0).ts()).isEqualTo(1L);
        properties.getDeviceApi().setMaxTsAge(Duration.ofDays(365));

        assertBadRequest("{\"ts\": 1, \"values\": {\"a\": 1}}", "'ts' is 1, more than PT8760H before the server's clock");
    }

    @Test
    void keysWithControlCharactersAreRefusedShowingTheCharacterEscaped() {
        assertBadRequest("{\"a\\u0000b\": 1}", "'a\\u0000b': keys must not contain control characters, found U+0000 at index 1");
        assertBadRequest("{\"line\\nbreak\": 1}", "'line\\nbreak': keys must not contain control characters");
    }

    @Test
    void aStringValueWithANulIsRefusedOnEveryDatabaseSinceOneCannotStoreIt() {
        assertThatThrownBy(() -> parser.parseTelemetry(bytes("{\"label\": \"a\\u0000b\"}")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getStatus()).isEqualTo(HttpStatus.BAD_REQUEST))
                .hasMessageContaining("label").hasMessageContaining("must not contain the NUL character (U+0000), found at index 1");
        assertThat(parser.parseTelemetry(bytes("{\"label\": \"tab\\there\"}"))).isNotEmpty();
    }

    @Test
    void anOverLongKeyIsRefusedWithItsLengthAndTheLimit() {
        assertBadRequest("{\"" + "k".repeat(256) + "\": 1}", "'" + "k".repeat(40) + "...': keys must be 1 to 255 characters");
    }

    @Test
    void objectAndArrayValuesCannotBeChanged() {
        Map<String, Object> values = parser.parseAttributes(bytes("{\"o\": {\"list\": [1, {\"x\": 2}]}}"));

        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) values.get("o");
        assertThatThrownBy(() -> object.put("y", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<?>) object.get("list")).clear()).isInstanceOf(UnsupportedOperationException.class);
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
