package io.tbactors.rule.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.tbactors.rule.RuleEngine;
import io.tbactors.rule.TbMsgType;
import io.tbactors.rule.chain.ResourceRuleChainSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(properties = "tb.rule-engine.chains=classpath:rule-chains/readings.json")
class ReadingsChainTest {

    @Autowired
    RuleEngine ruleEngine;

    @Autowired
    ResourceRuleChainSource chains;

    @Autowired
    ReadingStore store;

    @Test
    void aTemperatureIsStoredByTheTimeTheChainIsDone() throws Exception {
        UUID device = UUID.randomUUID();

        ruleEngine.process(chains.idOf("Readings"), TbMsgType.POST_TELEMETRY_REQUEST, device,
                Map.of("temperature", 21.5, "debug", true), Map.of()).get(10, TimeUnit.SECONDS);

        assertThat(store.readings()).filteredOn(reading -> reading.deviceId().equals(device))
                .extracting(ReadingStore.Reading::key, ReadingStore.Reading::value)
                .containsExactly(tuple("temperature", 21.5));
    }

    @Test
    void aMessageWithoutATemperatureGoesThroughWithoutBeingStored() throws Exception {
        UUID device = UUID.randomUUID();

        ruleEngine.process(chains.idOf("Readings"), TbMsgType.POST_TELEMETRY_REQUEST, device,
                Map.of("humidity", 40L), Map.of()).get(10, TimeUnit.SECONDS);

        assertThat(store.readings()).noneMatch(reading -> reading.deviceId().equals(device));
    }
}
