package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.tbactors.sample.iot.storage.KvRow;
import io.tbactors.sample.iot.storage.KvWriteQueues;
import io.tbactors.sample.iot.storage.WriteBehindQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The write-behind queues seen from the device API, with their writers held by the test (the batched writes wait
 * at a gate before they reach the database): a full queue answers 503 with {@code Retry-After} and a problem detail
 * that says so, and a device deleted while its rows wait fails only its own requests, while the rest of the batch
 * is committed.
 */
@TestPropertySource(properties = {
    "sample.storage.queue-capacity=4",
    "sample.storage.batch-size=10",
    "sample.storage.offer-timeout=200ms"
})
@Import(StorageQueueEndToEndTest.GateConfig.class)
class StorageQueueEndToEndTest extends EndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    KvWriteQueues queues;

    @Autowired
    BatchGate gate;

    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void openTheGate() {
        gate.open();
        clients.shutdownNow();
    }

    @Test
    void aFullStorageQueueAnswers503WithRetryAfterAndSaysTheQueueIsFull() throws Exception {
        List<CompletableFuture<ApiClient.Response>> queued = new ArrayList<>();
        WriteBehindQueue<KvRow> held = holdTheWritersOnABatch(queued);
        ApiClient.Device device = newDeviceWrittenBy(held);
        for (int i = 1; i <= 4; i++) {
            queued.add(postAsync(device, "{\"ts\": " + i + ", \"values\": {\"t\": " + i + "}}"));
        }
        await().atMost(WAIT).until(() -> held.size() == 4);

        ApiClient.Response refused = api.postAsDevice(device.token(), "telemetry", "{\"ts\": 5, \"values\": {\"t\": 5}}");

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(refused.json().get("detail").stringValue()).contains("storage queue is full", "ts_kv");
        assertThat(held.getRefused()).isPositive();

        gate.open();
        for (CompletableFuture<ApiClient.Response> response : queued) {
            assertThat(response.get(10, TimeUnit.SECONDS).status()).as("a reading that found room").isEqualTo(200);
        }
        JsonNode history = api.get(TelemetryEndToEndTest.historyPath(device) + "?keys=t").json();
        assertThat(history.get("t").valueStream().map(value -> value.get("ts").longValue()))
                .as("stored: the four queued readings, not the refused one").containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void aDeviceDeletedWhileItsRowsAreQueuedFailsOnlyItsOwnRequestAndTheBatchCommitsTheRest() throws Exception {
        List<CompletableFuture<ApiClient.Response>> blocker = new ArrayList<>();
        WriteBehindQueue<KvRow> held = holdTheWritersOnABatch(blocker);
        ApiClient.Device deleted = newDeviceWrittenBy(held);
        ApiClient.Device other = newDeviceWrittenBy(held);
        CompletableFuture<ApiClient.Response> ofDeleted = postAsync(deleted, "{\"ts\": 1000, \"values\": {\"t\": 1}}");
        CompletableFuture<ApiClient.Response> ofOther = postAsync(other, "{\"ts\": 1000, \"values\": {\"t\": 2}}");
        // both readings wait in the queue, so the writer takes them as one batch when it goes on
        await().atMost(WAIT).until(() -> held.size() == 2);

        assertThat(api.delete("/api/devices/" + deleted.id()).status()).isEqualTo(204);
        gate.open();

        ApiClient.Response deletedAnswer = ofDeleted.get(10, TimeUnit.SECONDS);
        assertThat(deletedAnswer.status()).as("never a 200 for a reading that was not stored").isEqualTo(410);
        assertThat(deletedAnswer.json().get("detail").stringValue()).contains("deleted", deleted.id().toString());
        assertThat(ofOther.get(10, TimeUnit.SECONDS).status()).as("the other device's reading in the same batch")
                .isEqualTo(200);
        assertThat(blocker.get(0).get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        JsonNode latest = api.get(TelemetryEndToEndTest.latestPath(other)).json();
        assertThat(latest.get("t").get("value").intValue()).isEqualTo(2);
        assertThat(held.getRejectedRows()).isPositive();
    }

    /**
     * Posts a reading whose row the writer of its queue takes as a batch, and waits until that writer waits at the
     * gate.
     *
     * @return the history queue whose writer is held: rows of devices written by it wait there
     */
    private WriteBehindQueue<KvRow> holdTheWritersOnABatch(List<CompletableFuture<ApiClient.Response>> responses) {
        gate.close();
        ApiClient.Device blocker = newDevice();
        responses.add(postAsync(blocker, "{\"ts\": 1, \"values\": {\"blocker\": 1}}"));
        await().atMost(WAIT).until(() -> gate.waiting() == 1);
        return queues.history(blocker.id());
    }

    /** A new device whose history rows go to the given queue (a device's rows always go to the same one). */
    private ApiClient.Device newDeviceWrittenBy(WriteBehindQueue<KvRow> queue) {
        ApiClient.Device device = newDevice();
        while (queues.history(device.id()) != queue) {
            device = newDevice();
        }
        return device;
    }

    private CompletableFuture<ApiClient.Response> postAsync(ApiClient.Device device, String body) {
        return CompletableFuture.supplyAsync(() -> api.postAsDevice(device.token(), "telemetry", body), clients);
    }

    /** Holds the batched writes (the only callers of a list-of-arguments batch update) while closed. */
    static final class BatchGate {

        private final AtomicInteger waiting = new AtomicInteger();
        private volatile CountDownLatch closed;

        void close() {
            closed = new CountDownLatch(1);
        }

        void open() {
            CountDownLatch latch = closed;
            closed = null;
            if (latch != null) {
                latch.countDown();
            }
        }

        int waiting() {
            return waiting.get();
        }

        void pass() {
            CountDownLatch latch = closed;
            if (latch == null) {
                return;
            }
            waiting.incrementAndGet();
            try {
                latch.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                waiting.decrementAndGet();
            }
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class GateConfig {

        @Bean
        BatchGate batchGate() {
            return new BatchGate();
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource, BatchGate gate) {
            return new JdbcTemplate(dataSource) {
                @Override
                public int[] batchUpdate(String sql, BatchPreparedStatementSetter batchArgs) {
                    gate.pass();
                    return super.batchUpdate(sql, batchArgs);
                }
            };
        }
    }
}
