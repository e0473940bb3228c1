package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class DeviceOrderEndToEndTest extends EndToEndTest {

    private static final int DEVICES = 16;
    private static final int MESSAGES_PER_DEVICE = 40;

    @Test
    void concurrentPostsForManyDevicesKeepEachDevicesOrderAndLoseNothing() throws Exception {
        List<ApiClient.Device> devices = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            devices.add(newDevice());
        }
        ExecutorService posters = Executors.newFixedThreadPool(DEVICES);
        try {
            List<Future<Integer>> accepted = new ArrayList<>();
            for (ApiClient.Device device : devices) {
                // each device posts its sequence one after the other (no explicit ts: the server stamps the time)
                accepted.add(posters.submit(() -> {
                    int ok = 0;
                    for (int seq = 0; seq < MESSAGES_PER_DEVICE; seq++) {
                        ok += api.postAsDevice(device.token(), "telemetry", "{\"seq\": " + seq + "}").status() == 200 ? 1 : 0;
                    }
                    return ok;
                }));
            }
            for (Future<Integer> future : accepted) {
                assertThat(future.get()).isEqualTo(MESSAGES_PER_DEVICE);
            }
        } finally {
            posters.shutdownNow();
        }

        for (ApiClient.Device device : devices) {
            JsonNode history = await().atMost(Duration.ofSeconds(30)).until(
                    () -> api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=seq").json(),
                    json -> json.has("seq") && json.get("seq").size() == MESSAGES_PER_DEVICE);
            List<Long> stored = history.get("seq").valueStream().map(v -> v.get("value").longValue()).toList();
            assertThat(stored).as("device %s, in time order", device.id())
                    .containsExactlyElementsOf(LongStream.range(0, MESSAGES_PER_DEVICE).boxed().toList());
            assertThat(api.get(TelemetryEndToEndTest.latestPath(device)).json().get("seq").get("value").longValue())
                    .isEqualTo(MESSAGES_PER_DEVICE - 1);
        }
    }
}
