package io.tbactors.sample.iot.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConsoleSnapshotsTest {

    @Test
    void aRuleNodeActorIdReadsAsItsNodeAndVersionAndOtherIdsAsTheyAre() {
        assertThat(ConsoleSnapshots.label("RULE_NODE|0a830466-a8d9-46a9-b257-ab76c1af9485|v3|save-telemetry"))
                .isEqualTo("save-telemetry (v3)");
        assertThat(ConsoleSnapshots.label("DEVICE|0a830466-a8d9-46a9-b257-ab76c1af9485"))
                .isEqualTo("DEVICE|0a830466-a8d9-46a9-b257-ab76c1af9485");
    }
}
