package io.tbactors.sample.iot.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.tbactors.sample.iot.config.SampleProperties;
import org.junit.jupiter.api.Test;

class InFlightLimiterTest {

    private static final UUID TENANT = UUID.randomUUID();

    private final SampleProperties properties = new SampleProperties();

    InFlightLimiterTest() {
        properties.getDeviceApi().setMaxInFlightPerDevice(10);
        properties.getDeviceApi().setMaxInFlightPerTenant(15);
    }

    @Test
    void aRefusalByTheTenantLeavesTheDeviceAsItWas() {
        InFlightLimiter limiter = new InFlightLimiter(properties);
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        assertThat(limiter.tryAcquire(TENANT, a, 10)).isNull();

        String refusal = limiter.tryAcquire(TENANT, b, 6);

        assertThat(refusal).contains("tenant has 10 value(s) in flight; at most 15");
        assertThat(limiter.tryAcquire(TENANT, b, 5)).as("b's refused 6 were given back").isNull();
        assertThat(limiter.getInFlightValues()).isEqualTo(15);
        assertThat(limiter.getRefused()).isEqualTo(1);
    }

    @Test
    void underConcurrentChurnTheBoundsHoldAndEverythingIsGivenBack() throws Exception {
        InFlightLimiter limiter = new InFlightLimiter(properties);
        UUID[] devices = {UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID()};
        AtomicInteger overBound = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < 6; t++) {
            UUID device = devices[t % devices.length];
            pool.submit(() -> {
                start.await();
                for (int i = 0; i < 20_000; i++) {
                    int readings = 1 + i % 4;
                    if (limiter.tryAcquire(TENANT, device, readings) == null) {
                        if (limiter.getInFlightValues() > 15) {
                            overBound.incrementAndGet();
                        }
                        limiter.release(TENANT, device, readings);
                    }
                }
                return null;
            });
        }
        start.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        assertThat(overBound).hasValue(0);
        assertThat(limiter.getInFlightValues()).isZero();
        for (UUID device : devices) {
            assertThat(limiter.tryAcquire(TENANT, device, 10)).as("the device's whole bound is free again").isNull();
            limiter.release(TENANT, device, 10);
        }
    }
}
