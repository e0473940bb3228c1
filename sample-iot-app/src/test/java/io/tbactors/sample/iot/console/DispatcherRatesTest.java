package io.tbactors.sample.iot.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class DispatcherRatesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong deviceProcessed = new AtomicLong();
    private final AtomicLong ruleProcessed = new AtomicLong();
    private final AtomicLong ruleNodeProcessed = new AtomicLong();

    DispatcherRatesTest() {
        counter("device", "DeviceActor", deviceProcessed);
        counter("rule", "RuleChainActor", ruleProcessed);
        counter("rule", "RuleNodeActor", ruleNodeProcessed);
    }

    @Test
    void theRateIsTheCountersGrowthOverTheTimeBetweenTwoLooksSummedOverActorTypes() {
        DispatcherRates rates = new DispatcherRates(registry, nanos::get);
        assertThat(rates.rates()).as("nothing to compare with yet").isEmpty();

        deviceProcessed.addAndGet(30);
        ruleProcessed.addAndGet(100);
        ruleNodeProcessed.addAndGet(500);
        nanos.addAndGet(2_000_000_000L);

        assertThat(rates.rates()).containsEntry("device", 15.0).containsEntry("rule", 300.0);
    }

    @Test
    void aLookSoonerThanHalfASecondAfterThePreviousOneAnswersThePreviousRates() {
        DispatcherRates rates = new DispatcherRates(registry, nanos::get);
        rates.rates();
        deviceProcessed.addAndGet(10);
        nanos.addAndGet(1_000_000_000L);
        assertThat(rates.rates()).containsEntry("device", 10.0);

        deviceProcessed.addAndGet(1000);
        nanos.addAndGet(100_000_000L);

        assertThat(rates.rates()).containsEntry("device", 10.0);
    }

    @Test
    void aCounterThatStartsOverNeverGivesANegativeRate() {
        DispatcherRates rates = new DispatcherRates(registry, nanos::get);
        deviceProcessed.set(100);
        rates.rates();
        deviceProcessed.set(0);
        nanos.addAndGet(1_000_000_000L);

        assertThat(rates.rates()).containsEntry("device", 0.0);
    }

    private void counter(String dispatcher, String actorType, AtomicLong count) {
        // the starter's processing timer per dispatcher, actor type and outcome: its count is the processed messages
        FunctionTimer.builder(DispatcherRates.PROCESSING, count, AtomicLong::get, c -> 0.0, TimeUnit.NANOSECONDS)
                .tag("dispatcher", dispatcher).tag("actor.type", actorType).tag("outcome", "success").register(registry);
    }
}
