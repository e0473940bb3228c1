package io.tbactors.sample.iot.storage;

import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tbactors.sample.iot.config.SampleProperties;
import io.tbactors.spring.TbActorsLifecycle;
import lombok.extern.slf4j.Slf4j;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The write-behind queues of the key-value tables: {@code sample.storage.history-writers} for time series (a device's
 * rows always in the same one) and one for attributes ({@code attribute_kv}), each written by its own thread in JDBC
 * batches of up to {@code sample.storage.batch-size} rows, one transaction a batch. A time series row is a reading of
 * one key: its batch writes it to the history ({@code ts_kv}) and moves the key's latest value ({@code ts_kv_latest})
 * in the same transaction, so the two never disagree, even after a crash, and a reading costs one queued row and one
 * future, not two. A save's future completes when its batch is committed, so a rule node reports a save done only
 * once it is stored.
 *
 * <p>Within a batch, rows for the same key are folded before they are written, with the result of writing them
 * one by one in order: for history the last row at a time wins, for latest values and attributes the newest time
 * wins and, at the same time, the later row.
 *
 * <p>Stops after the actors ({@link #PHASE}): by then nothing adds rows, and every row queued is written before
 * the connection pool closes (singletons are destroyed after every lifecycle has stopped).
 */
@Slf4j
@Component
public class KvWriteQueues implements SmartLifecycle, MeterBinder {

    /** Stops after the actor system ({@link TbActorsLifecycle#PHASE}) and before the web server. */
    public static final int PHASE = TbActorsLifecycle.PHASE - 256;

    private final List<WriteBehindQueue<KvRow>> history;
    private final WriteBehindQueue<KvRow> attributes;
    private final Duration stopTimeout;
    private volatile boolean running;

    /**
     * @param jdbcTemplate the database
     * @param transactionManager one transaction per batch
     * @param properties {@code sample.storage.*}
     */
    public KvWriteQueues(JdbcTemplate jdbcTemplate, PlatformTransactionManager transactionManager, SampleProperties properties) {
        SampleProperties.Storage storage = properties.getStorage();
        KvTableSql sql = KvTableSql.forDatabase(
                jdbcTemplate.execute((ConnectionCallback<String>) connection -> {
                    DatabaseMetaData metaData = connection.getMetaData();
                    return metaData.getDatabaseProductName();
                }));
        TransactionTemplate transaction = new TransactionTemplate(transactionManager);
        NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(jdbcTemplate);
        Function<Set<UUID>, Set<UUID>> existing = ids -> new HashSet<>(named.queryForList(
                "SELECT id FROM device WHERE id IN (:ids)", Map.of("ids", ids), UUID.class));
        int writers = storage.getHistoryWriters();
        List<WriteBehindQueue<KvRow>> historyQueues = new ArrayList<>(writers);
        for (int i = 0; i < writers; i++) {
            historyQueues.add(queue(writers == 1 ? "ts_kv" : "ts_kv-" + i, storage, new TableWriter(jdbcTemplate, transaction,
                    List.of(new Statement(sql.history(), sql.historyInsertOnly(), row -> new HistoryKey(row), false),
                            new Statement(sql.latest(), null, row -> new LatestKey(row), true)), existing)));
        }
        this.history = List.copyOf(historyQueues);
        this.attributes = queue("attribute_kv", storage, new TableWriter(jdbcTemplate, transaction,
                List.of(new Statement(sql.attribute(), null, row -> new LatestKey(row), true)), existing));
        this.stopTimeout = storage.getStopTimeout();
    }

    private record HistoryKey(Object deviceId, String key, long ts) {
        HistoryKey(KvRow row) {
            this(row.deviceId(), row.key(), row.ts());
        }
    }

    private record LatestKey(Object deviceId, String key) {
        LatestKey(KvRow row) {
            this(row.deviceId(), row.key());
        }
    }

    private static WriteBehindQueue<KvRow> queue(String table, SampleProperties.Storage storage, TableWriter writer) {
        return new WriteBehindQueue<>(table, storage.getQueueCapacity(), storage.getBatchSize(), storage.getMaxDelay(),
                storage.getOfferTimeout(), writer::write);
    }

    /**
     * One statement a batch runs for each of its rows, after folding the rows by key.
     *
     * @param sql the statement (an upsert)
     * @param insertOnlySql null, or a plain insert to try first ({@link KvTableSql#historyInsertOnly()})
     * @param keyOf the row's key in the statement's table
     * @param newestWins whether a row replaces an earlier one of the same key only when it is not older
     */
    record Statement(String sql, String insertOnlySql, Function<KvRow, Object> keyOf, boolean newestWins) {
    }

    /**
     * Writes a batch in one transaction: each of its statements in turn, each as one JDBC batch of the rows folded by
     * its key. A device deleted while its rows waited makes the batch fail (its rows have no device to refer to):
     * then the rows of every device that no longer exists are left out and the rest is written again, so the batch
     * commits every row it can and only the deleted devices' saves fail, with {@link DeviceDeletedException}. A
     * failure with no deleted device behind it fails the whole batch. When a statement has an
     * {@code insertOnlySql}, the batch is first written with it, its rows as they came (not folded), and written again
     * with the upserts only when one of its rows is already stored or comes twice.
     */
    record TableWriter(JdbcTemplate jdbc, TransactionTemplate transaction, List<Statement> statements,
                       Function<Set<UUID>, Set<UUID>> existingDevices) {

        /** Devices deleted during the retries themselves are looked for again, a few times. */
        private static final int MAX_ATTEMPTS = 3;

        void write(List<KvRow> rows) throws WriteBehindQueue.RowsRejectedException {
            Map<Integer, Throwable> rejected = new HashMap<>();
            List<KvRow> toWrite = rows;
            for (int attempt = 1; !toWrite.isEmpty(); attempt++) {
                try {
                    writeAll(toWrite);
                    break;
                } catch (DataAccessException e) {
                    Set<UUID> deleted = deletedDevices(toWrite);
                    if (deleted.isEmpty() || attempt == MAX_ATTEMPTS) {
                        throw e;
                    }
                    List<KvRow> kept = new ArrayList<>(toWrite.size());
                    for (int i = 0; i < rows.size(); i++) {
                        KvRow row = rows.get(i);
                        if (deleted.contains(row.deviceId())) {
                            rejected.putIfAbsent(i, new DeviceDeletedException(row.deviceId()));
                        } else if (!rejected.containsKey(i)) {
                            kept.add(row);
                        }
                    }
                    toWrite = kept;
                }
            }
            if (!rejected.isEmpty()) {
                throw new WriteBehindQueue.RowsRejectedException(rejected);
            }
        }

        private void writeAll(List<KvRow> rows) {
            boolean insertFirst = statements.stream().anyMatch(statement -> statement.insertOnlySql() != null);
            if (insertFirst) {
                try {
                    transaction.executeWithoutResult(status -> run(rows, true));
                    return;
                } catch (DuplicateKeyException alreadyStored) {
                    // a reading sent again (its first answer lost), or twice in the batch: rolled back, written again
                    // as upserts below
                }
            }
            transaction.executeWithoutResult(status -> run(rows, false));
        }

        private void run(List<KvRow> rows, boolean insertFirst) {
            for (Statement statement : statements) {
                boolean insertOnly = insertFirst && statement.insertOnlySql() != null;
                // plain inserts need no folding: two rows of one key fail the batch, and the upserts fold them
                List<KvRow> batch = insertOnly ? rows : fold(rows, statement.keyOf(), statement.newestWins());
                // each parameter set with its own type's setter, not through Spring's per-value type dispatch (8% of
                // the writer's samples in a profile of the 8,000-reading bodies)
                jdbc.batchUpdate(insertOnly ? statement.insertOnlySql() : statement.sql(), new BatchPreparedStatementSetter() {
                    @Override
                    public void setValues(PreparedStatement ps, int index) throws SQLException {
                        batch.get(index).bind(ps);
                    }

                    @Override
                    public int getBatchSize() {
                        return batch.size();
                    }
                });
            }
        }

        private Set<UUID> deletedDevices(List<KvRow> rows) {
            Set<UUID> ids = new HashSet<>();
            rows.forEach(row -> ids.add(row.deviceId()));
            Set<UUID> deleted = new HashSet<>(ids);
            deleted.removeAll(existingDevices.apply(ids));
            return deleted;
        }
    }

    /**
     * @param rows a batch in order
     * @param keyOf the row's key in its table
     * @param newestWins whether a row replaces an earlier one of the same key only when it is not older
     * @return one row per key: what writing the rows one by one in order would leave
     */
    static List<KvRow> fold(List<KvRow> rows, Function<KvRow, Object> keyOf, boolean newestWins) {
        Map<Object, KvRow> byKey = new LinkedHashMap<>();
        for (KvRow row : rows) {
            byKey.merge(keyOf.apply(row), row, (earlier, later) -> !newestWins || later.ts() >= earlier.ts() ? later : earlier);
        }
        return new ArrayList<>(byKey.values());
    }

    /**
     * @param deviceId a device
     * @return the time series queue of the device's rows (history and latest values): always the same one, so they are
     *         written in order
     */
    public WriteBehindQueue<KvRow> history(UUID deviceId) {
        return history.get(Math.floorMod(deviceId.hashCode(), history.size()));
    }

    /** @return the history queues ({@code sample.storage.history-writers} of them) */
    public List<WriteBehindQueue<KvRow>> historyQueues() {
        return history;
    }

    /** @return the attributes queue ({@code attribute_kv}) */
    public WriteBehindQueue<KvRow> attributes() {
        return attributes;
    }

    private List<WriteBehindQueue<KvRow>> all() {
        List<WriteBehindQueue<KvRow>> all = new ArrayList<>(history);
        all.add(attributes);
        return all;
    }

    @Override
    public void start() {
        all().forEach(WriteBehindQueue::start);
        running = true;
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        log.info("Stopping the write queues: writing {} queued row(s)", all().stream().mapToInt(WriteBehindQueue::size).sum());
        all().forEach(queue -> queue.stop(stopTimeout));
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Like the actor system, the queues keep running while a test context is paused: their stop is final. */
    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (WriteBehindQueue<KvRow> queue : all()) {
            Gauge.builder("sample.iot.storage.queue.size", queue, WriteBehindQueue::size)
                    .description("Rows waiting in a table's write queue").tag("queue", queue.getName()).register(registry);
            FunctionCounter.builder("sample.iot.storage.queue.refused", queue, WriteBehindQueue::getRefused)
                    .description("Rows refused because the write queue was full").tag("queue", queue.getName()).register(registry);
            FunctionCounter.builder("sample.iot.storage.batches", queue, WriteBehindQueue::getBatches)
                    .description("Batches written").tag("queue", queue.getName()).tag("outcome", "committed").register(registry);
            FunctionCounter.builder("sample.iot.storage.batches", queue, WriteBehindQueue::getFailedBatches)
                    .description("Batches written").tag("queue", queue.getName()).tag("outcome", "failed").register(registry);
            FunctionCounter.builder("sample.iot.storage.rows", queue, WriteBehindQueue::getRowsWritten)
                    .description("Rows committed").tag("queue", queue.getName()).register(registry);
            FunctionCounter.builder("sample.iot.storage.rows.rejected", queue, WriteBehindQueue::getRejectedRows)
                    .description("Rows left out of a committed batch because their device was deleted")
                    .tag("queue", queue.getName()).register(registry);
        }
    }
}
