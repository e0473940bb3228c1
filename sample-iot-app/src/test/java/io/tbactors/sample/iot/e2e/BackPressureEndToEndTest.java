package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.tbactors.core.DefaultTbActorSystem;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * A device whose readings arrive faster than its actor takes them gets 429 once its bounded mailbox is full, and
 * every reading answered 200 is still stored.
 */
@TestPropertySource(properties = {
    "tb.actors.dispatchers.device.type=single",
    "tb.actors.dispatchers.device.mailbox-bound=2"
})
class BackPressureEndToEndTest extends EndToEndTest {

    @Autowired
    DefaultTbActorSystem actorSystem;

    @Test
    void aDeviceWithAFullMailboxGets429AndWhatWasAcceptedIsStored() throws Exception {
        ApiClient.Device device = newDevice();
        // warm the device actor up, so the next readings queue in its mailbox rather than behind its init
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"seq\": 0}").status()).isEqualTo(200);

        // hold the device dispatcher's only thread, so the device actor cannot take its readings
        HeldDispatcher held = HeldDispatcher.hold(actorSystem, "device");

        CompletableFuture<ApiClient.Response> first = CompletableFuture.supplyAsync(
                () -> api.postAsDevice(device.token(), "telemetry", "{\"seq\": 1}"));
        CompletableFuture<ApiClient.Response> second = CompletableFuture.supplyAsync(
                () -> api.postAsDevice(device.token(), "telemetry", "{\"seq\": 2}"));
        await().atMost(Duration.ofSeconds(10)).until(() -> actorSystem.getLargestMailboxes(1).stream()
                .anyMatch(stats -> stats.pendingMessages() == 2));

        ApiClient.Response refused = api.postAsDevice(device.token(), "telemetry", "{\"seq\": 3}");
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.json().get("detail").stringValue()).contains("mailbox is full");

        held.close();
        assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(second.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            ApiClient.Response history = api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq");
            assertThat(history.status()).isEqualTo(200);
            assertThat(history.json().get("seq")).hasSize(3);
        });
    }
}
