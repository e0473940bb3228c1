package io.tbactors.sample.iot.actors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ReadingMetadataTest {

    private final ReadingMetadata metadata = new ReadingMetadata("pump-1", "pump", 1_700_000_000_123L);

    @Test
    void itIsTheMapOfTheDevicesNameAndTypeAndTheReadingsTimeAsText() {
        Map<String, String> expected = Map.of("deviceName", "pump-1", "deviceType", "pump", "ts", "1700000000123");

        assertThat(metadata).isEqualTo(expected).hasSameHashCodeAs(expected);
        assertThat(metadata.get("ts")).isEqualTo("1700000000123");
        assertThat(metadata.get("deviceName")).isEqualTo("pump-1");
        assertThat(metadata.get("other")).isNull();
        assertThat(metadata.containsKey("deviceType")).isTrue();
        assertThat(metadata.containsKey("other")).isFalse();
        assertThat(new LinkedHashMap<>(metadata)).containsExactly(Map.entry("deviceName", "pump-1"),
                Map.entry("deviceType", "pump"), Map.entry("ts", "1700000000123"));
        assertThat(metadata).hasToString("{deviceName=pump-1, deviceType=pump, ts=1700000000123}");
    }

    @Test
    void itCannotBeChanged() {
        assertThatThrownBy(() -> metadata.put("ts", "0")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> metadata.remove("ts")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> metadata.entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(metadata::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThat(metadata).hasSize(3);
    }
}
