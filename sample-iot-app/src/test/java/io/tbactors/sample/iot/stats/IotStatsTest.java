package io.tbactors.sample.iot.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.tbactors.api.TbActorStopReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class IotStatsTest {

    @Test
    void manyDroppedMessagesAreCountedEachButLoggedInOneAggregatedLine(CapturedOutput output) {
        IotStats stats = new IotStats();

        for (int i = 0; i < 10_000; i++) {
            stats.ruleEngineLost(TbActorStopReason.STOPPED);
        }

        assertThat(stats.getLost()).isEqualTo(10_000);
        assertThat(output.getOut().lines().filter(line -> line.contains("rule engine message(s) dropped"))).hasSize(1);
        assertThat(output.getOut()).contains("1 rule engine message(s) dropped since the last report", "(last reason STOPPED)");
    }
}
