package io.tbactors.sample.iot.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import io.tbactors.sample.iot.config.SampleProperties;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The batched writes against the real schema (Flyway's migrations): batches commit, keep the order of writes per
 * key, and fail every save of a batch that does not commit. On H2 in memory; on a PostgreSQL server instead when
 * {@code -Dsample.test.postgres-url=jdbc:postgresql://...} is given (user {@code sample.test.postgres-user},
 * default {@code postgres}, no password), to check the PostgreSQL statements.
 */
class KvWriteQueuesTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String POSTGRES_URL = System.getProperty("sample.test.postgres-url");
    private static final UUID TENANT = UUID.fromString("5a3c1e80-0000-4000-8000-000000000001");

    private final KvCodec codec = new KvCodec(JsonMapper.builder().build());
    private JdbcTemplate jdbc;
    private KvWriteQueues queues;
    private TimeseriesDao timeseries;
    private AttributesDao attributes;
    private UUID device;

    @BeforeEach
    void database() {
        DataSource dataSource;
        if (POSTGRES_URL == null) {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL("jdbc:h2:mem:kv-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            dataSource = h2;
        } else {
            dataSource = new DriverManagerDataSource(POSTGRES_URL, System.getProperty("sample.test.postgres-user", "postgres"), "");
        }
        Flyway.configure().dataSource(dataSource).load().migrate();
        jdbc = new JdbcTemplate(dataSource);
        device = newDevice();
    }

    @AfterEach
    void stop() {
        if (queues != null) {
            queues.stop();
        }
        if (POSTGRES_URL == null) {
            jdbc.execute("SHUTDOWN");
        }
    }

    /** One history writer: the batch tests put rows of several devices in one history batch. */
    private void start(int batchSize, Duration maxDelay) {
        start(batchSize, maxDelay, 1);
    }

    private void start(int batchSize, Duration maxDelay, int historyWriters) {
        SampleProperties properties = new SampleProperties();
        properties.getStorage().setBatchSize(batchSize);
        properties.getStorage().setMaxDelay(maxDelay);
        properties.getStorage().setHistoryWriters(historyWriters);
        queues = new KvWriteQueues(jdbc, new DataSourceTransactionManager(jdbc.getDataSource()), properties);
        queues.start();
        JdbcClient client = JdbcClient.create(jdbc);
        timeseries = new TimeseriesDao(client, codec, queues);
        attributes = new AttributesDao(client, codec, queues);
    }

    private UUID newDevice() {
        UUID id = UUID.randomUUID();
        jdbc.update("INSERT INTO device (id, tenant_id, name, type, access_token, created_time, version) VALUES (?, ?, ?, ?, ?, 0, 0)",
                id, TENANT, "d-" + id, "t", id.toString().substring(0, 20));
        return id;
    }

    private static Map<String, Object> values(Object... keyValues) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            values.put((String) keyValues[i], keyValues[i + 1]);
        }
        return values;
    }

    private static void awaitAll(List<CompletableFuture<Void>> saves) {
        await().atMost(WAIT).until(() -> saves.stream().allMatch(CompletableFuture::isDone));
        assertThat(saves).allMatch(save -> !save.isCompletedExceptionally());
    }

    /** One batch, and then one batch per row: both leave what writing the rows one at a time in order leaves. */
    @Test
    void latestValuesKeepTheOrderOfWritesPerKeyWithinABatch() {
        start(1000, Duration.ofHours(1));
        assertLatestOrder(true);
    }

    @Test
    void latestValuesKeepTheOrderOfWritesPerKeyAcrossBatches() {
        start(1, Duration.ofHours(1));
        assertLatestOrder(false);
    }

    private void assertLatestOrder(boolean oneBatch) {
        List<CompletableFuture<Void>> saves = new ArrayList<>();
        saves.add(timeseries.save(device, 2000, values("t", 1L, "mode", "eco")));
        saves.add(timeseries.save(device, 2000, values("t", 2L)));
        saves.add(timeseries.save(device, 1000, values("t", 3L, "mode", "old")));
        saves.add(timeseries.save(device, 3000, values("mode", "boost")));
        saves.add(attributes.save(device, 20, values("fw", "2")));
        saves.add(attributes.save(device, 10, values("fw", "1", "hw", "a")));
        saves.add(attributes.save(device, 20, values("fw", "2b")));
        if (oneBatch) {
            assertThat(saves).as("an hour's delay and room left: nothing is written before the stop").noneMatch(CompletableFuture::isDone);
            queues.stop();
        }

        awaitAll(saves);
        Map<String, TsValue> latest = timeseries.findLatest(device, null);
        assertThat(latest).containsEntry("t", new TsValue(2000, 2L)).containsEntry("mode", new TsValue(3000, "boost"));
        assertThat(timeseries.findHistory(device, List.of("t"), 0, Long.MAX_VALUE, 10))
                .containsEntry("t", List.of(new TsValue(1000, 3L), new TsValue(2000, 2L)));
        assertThat(attributes.findAll(device)).containsEntry("fw", new TsValue(20, "2b")).containsEntry("hw", new TsValue(10, "a"));
    }

    @Test
    void aBatchThatDoesNotCommitFailsEachOfItsSavesAndStoresNoneOfThem() {
        start(3, Duration.ofHours(1));

        // three history rows make the batch: the over-long key breaks its column's size
        List<CompletableFuture<Void>> saves = List.of(
                timeseries.save(device, 1000, values("a", 1L)),
                timeseries.save(device, 1000, values("k".repeat(300), 2L)),
                timeseries.save(device, 2000, values("a", 3L)));

        await().atMost(WAIT).until(() -> saves.stream().allMatch(CompletableFuture::isDone));
        for (CompletableFuture<Void> save : saves) {
            assertThat(save).isCompletedExceptionally();
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ts_kv WHERE device_id = ?", Long.class, device)).as("rolled back").isZero();
        assertThat(queues.history(device).getFailedBatches()).isEqualTo(1);

        CompletableFuture<Void> after = timeseries.save(device, 3000, values("a", 4L, "b", 5L, "c", 6L));
        queues.stop();
        awaitAll(List.of(after));
        assertThat(timeseries.findLatest(device, null)).containsEntry("a", new TsValue(3000, 4L))
                .containsEntry("b", new TsValue(3000, 5L)).containsEntry("c", new TsValue(3000, 6L));
    }

    @Test
    void aReadingsHistoryRowAndLatestValueCommitTogetherOrNotAtAll() {
        AtomicBoolean refuseLatest = new AtomicBoolean(true);
        JdbcTemplate database = jdbc;
        // the latest values' statement fails after the history rows of the same batch were inserted
        jdbc = new JdbcTemplate(database.getDataSource()) {
            @Override
            public int[] batchUpdate(String sql, BatchPreparedStatementSetter batchArgs) {
                if (sql.contains("ts_kv_latest") && refuseLatest.get()) {
                    throw new DataAccessResourceFailureException("the latest values' write refused by the test");
                }
                return super.batchUpdate(sql, batchArgs);
            }
        };
        start(2, Duration.ofHours(1));

        List<CompletableFuture<Void>> saves = List.of(timeseries.save(device, 1000, values("a", 1L)),
                timeseries.save(device, 2000, values("a", 2L)));

        await().atMost(WAIT).until(() -> saves.stream().allMatch(CompletableFuture::isDone));
        assertThat(saves).allMatch(CompletableFuture::isCompletedExceptionally);
        assertThat(database.queryForObject("SELECT COUNT(*) FROM ts_kv WHERE device_id = ?", Long.class, device))
                .as("the history rows rolled back with the latest value").isZero();
        assertThat(timeseries.findLatest(device, null)).isEmpty();

        refuseLatest.set(false);
        awaitAll(List.of(timeseries.save(device, 3000, values("a", 3L)), timeseries.save(device, 4000, values("a", 4L))));
        assertThat(timeseries.findHistory(device, List.of("a"), 0, Long.MAX_VALUE, 10))
                .containsEntry("a", List.of(new TsValue(3000, 3L), new TsValue(4000, 4L)));
        assertThat(timeseries.findLatest(device, null)).containsEntry("a", new TsValue(4000, 4L));
    }

    @Test
    void aBatchWithRowsOfADeletedDeviceCommitsTheOtherRowsAndFailsOnlyThoseSaves() throws Exception {
        start(3, Duration.ofHours(1));
        UUID deleted = newDevice();
        jdbc.update("DELETE FROM device WHERE id = ?", deleted);

        // three history rows make the batch: the deleted device's row breaks its foreign key
        CompletableFuture<Void> first = timeseries.save(device, 1000, values("a", 1L));
        CompletableFuture<Void> ofDeleted = timeseries.save(deleted, 1000, values("a", 2L));
        CompletableFuture<Void> last = timeseries.save(device, 2000, values("a", 3L));

        await().atMost(WAIT).until(() -> first.isDone() && ofDeleted.isDone() && last.isDone());
        assertThatThrownBy(ofDeleted::get).cause().isInstanceOf(DeviceDeletedException.class)
                .hasMessageContaining(deleted.toString()).hasMessageContaining("deleted");
        first.get();
        last.get();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ts_kv WHERE device_id = ?", Long.class, device)).isEqualTo(2);
        assertThat(queues.history(device).getFailedBatches()).isZero();
        assertThat(queues.history(device).getRejectedRows()).isEqualTo(1);
    }

    @Test
    void historyRowsArePartitionedByDeviceAndEachDevicesRowsAreWrittenInOrder() {
        start(7, Duration.ofMillis(1), 2);
        UUID second = newDevice();
        while (queues.history(second) == queues.history(device)) {
            second = newDevice();
        }
        List<CompletableFuture<Void>> saves = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            saves.add(timeseries.save(device, 1000 + i, values("a", (long) i)));
            saves.add(timeseries.save(second, 1000 + i, values("a", (long) -i)));
            // the same time again: a later write of a key replaces the earlier one, whichever batch it lands in
            saves.add(timeseries.save(device, 1000 + i, values("a", (long) i * 10)));
        }

        awaitAll(saves);
        assertThat(queues.historyQueues()).hasSize(2).extracting(WriteBehindQueue::getName).containsExactly("ts_kv-0", "ts_kv-1");
        assertThat(queues.history(device).getRowsWritten()).as("every row of the device in its own queue").isGreaterThanOrEqualTo(100);
        assertThat(queues.history(second).getRowsWritten()).isEqualTo(100);
        List<TsValue> first = timeseries.findHistory(device, List.of("a"), 0, Long.MAX_VALUE, 1000).get("a");
        assertThat(first).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(first.get(i)).isEqualTo(new TsValue(1000 + i, (long) i * 10));
        }
        assertThat(timeseries.findLatest(second, null)).containsEntry("a", new TsValue(1099, -99L));
    }

    @Test
    void foldingABatchKeepsOneRowPerKeyAsWritingThemInOrderWould() {
        KvRow a1 = new KvRow(device, "a", 2, codec.toStored(1L));
        KvRow a2 = new KvRow(device, "a", 2, codec.toStored(2L));
        KvRow aOld = new KvRow(device, "a", 1, codec.toStored(3L));
        KvRow b = new KvRow(device, "b", 1, codec.toStored(4L));

        assertThat(KvWriteQueues.fold(List.of(a1, b, a2, aOld), row -> row.key(), true)).containsExactly(a2, b);
        assertThat(KvWriteQueues.fold(List.of(a1, b, a2, aOld), row -> row.key(), false)).containsExactly(aOld, b);
    }
}
