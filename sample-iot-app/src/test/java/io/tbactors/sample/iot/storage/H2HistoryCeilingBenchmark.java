package io.tbactors.sample.iot.storage;

import static io.tbactors.sample.iot.storage.H2HistoryRows.DEVICES;
import static io.tbactors.sample.iot.storage.H2HistoryRows.createSchemaAndDevices;
import static io.tbactors.sample.iot.storage.H2HistoryRows.median;
import static io.tbactors.sample.iot.storage.H2HistoryRows.spread;
import static io.tbactors.sample.iot.storage.H2HistoryRows.storedRows;
import static io.tbactors.sample.iot.storage.H2HistoryRows.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import io.tbactors.sample.iot.config.SampleProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * How many history rows H2 itself can store per second on this machine, with nothing else running: the app's
 * schema (Flyway's migrations) in an H2 file, the app's own statements ({@link KvTableSql}: the insert the writer
 * tries first and the upsert it falls back to), batches of 1,000 rows (the default {@code sample.storage.batch-size})
 * of 20 devices, one transaction a batch, on one thread as the write-behind queue writes, and then on 2 and 4
 * threads (each with its own connection and devices, as writers per device partition would). This is the ceiling of
 * the device API's bodies with the default database: each reading is one history row. Run by its own command (skipped
 * by the build):
 * <pre>
 * ./mvnw -B -q verify -pl sample-iot-app -am -Dtest=H2HistoryCeilingBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Djacoco.skip=true -Dsample.benchmark=true
 * </pre>
 * Each measurement writes 400,000 rows twice into a fresh file; the second round is reported (the first warms the
 * JIT). The table goes to the log and to {@code target/h2-history-ceiling.txt}.
 *
 * <p>{@link #costOfWritingAtCommit} measures what {@code WRITE_DELAY=0} (forced by {@code H2SafeUrl} so that an answered
 * reading survives a {@code kill -9}) costs against H2's default background write: both URLs in the same run, rounds
 * interleaved, for full batches and for the small batches a lightly loaded writer commits. Its table goes to
 * {@code target/h2-write-delay-cost.txt}.
 */
@EnabledIfSystemProperty(named = "sample.benchmark", matches = "true")
class H2HistoryCeilingBenchmark {

    private static final Logger log = LoggerFactory.getLogger(H2HistoryCeilingBenchmark.class);

    private static final int ROWS = 400_000;
    private static final int BATCH = 1000;

    @TempDir
    Path dir;

    @Test
    void historyRowsPerSecondOfOneWriterThread() throws Exception {
        KvTableSql sql = KvTableSql.forDatabase("H2");
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "H2 history rows/s, batches of %d, %d cores", BATCH,
                Runtime.getRuntime().availableProcessors()));
        report.add(measure("insert (tried first)", sql.historyInsertOnly(), 1));
        report.add(measure("upsert (MERGE ... KEY)", sql.history(), 1));
        report.add(measure("insert", sql.historyInsertOnly(), 2));
        report.add(measure("insert", sql.historyInsertOnly(), 4));
        String table = String.join(System.lineSeparator(), report) + System.lineSeparator();
        log.info("{}{}", System.lineSeparator(), table);
        Files.writeString(Path.of("target", "h2-history-ceiling.txt"), table);
    }

    /**
     * The cost of {@code WRITE_DELAY=0}: one writer, the insert the writer tries first, 7 rounds; in each round the
     * default URL and the one with {@code WRITE_DELAY=0} write the same rows into fresh files, one after the other, in
     * alternating order. The medians and their ratio are reported with the spread (max/min) of each.
     */
    @Test
    void costOfWritingAtCommit() throws Exception {
        KvTableSql sql = KvTableSql.forDatabase("H2");
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "H2 history rows/s, one writer, default write delay vs WRITE_DELAY=0, "
                + "median of 7 interleaved rounds (spread max/min), %d cores", Runtime.getRuntime().availableProcessors()));
        for (int batch : new int[] {BATCH, 20}) {
            int rows = batch == BATCH ? ROWS / 2 : ROWS / 20;
            List<Double> delayed = new ArrayList<>();
            List<Double> atCommit = new ArrayList<>();
            for (int round = 0; round < 7; round++) {
                boolean delayedFirst = round % 2 == 0;
                for (int turn = 0; turn < 2; turn++) {
                    boolean writeAtCommit = delayedFirst == (turn == 1);
                    String url = "jdbc:h2:file:" + dir.resolve(UUID.randomUUID().toString()).toAbsolutePath()
                            + (writeAtCommit ? ";WRITE_DELAY=0" : "");
                    UUID[] devices = createSchemaAndDevices(url);
                    long started = System.nanoTime();
                    write(url, sql.historyInsertOnly(), devices, 0, 1, 1_700_000_000_000L, rows, batch);
                    double rowsPerSecond = rows / ((System.nanoTime() - started) / 1e9);
                    assertThat(storedRows(url)).as("rows stored with %s", url).isEqualTo(rows);
                    (writeAtCommit ? atCommit : delayed).add(rowsPerSecond);
                }
            }
            double delayedMedian = median(delayed);
            double atCommitMedian = median(atCommit);
            report.add(String.format(Locale.ROOT, "batches of %4d: default %9.0f rows/s (spread %.2fx), WRITE_DELAY=0 %9.0f "
                    + "rows/s (spread %.2fx), ratio %.2f", batch, delayedMedian, spread(delayed), atCommitMedian,
                    spread(atCommit), atCommitMedian / delayedMedian));
        }
        String table = String.join(System.lineSeparator(), report) + System.lineSeparator();
        log.info("{}{}", System.lineSeparator(), table);
        Files.writeString(Path.of("target", "h2-write-delay-cost.txt"), table);
    }

    /**
     * The app's storage layer against H2 alone, in the same run: readings saved through {@link TimeseriesDao#save} (the
     * write-behind queues, their futures, the fold and Spring's JDBC batch, history and latest value, as the
     * {@code save-timeseries} node saves them) from one thread that keeps {@code 16,000} readings in flight (the
     * default bound per tenant), against the raw JDBC loop above, interleaved rounds, each into a fresh file with
     * {@code WRITE_DELAY=0}, 7 counted after one of warm-up. Medians with spreads; the table goes to
     * {@code target/h2-storage-layer.txt}.
     */
    @Test
    void theStorageLayerAgainstH2Alone() throws Exception {
        KvTableSql sql = KvTableSql.forDatabase("H2");
        List<Double> alone = new ArrayList<>();
        List<Double> layer = new ArrayList<>();
        // round 0 warms both up and is not counted
        for (int round = 0; round <= 7; round++) {
            for (int turn = 0; turn < 2; turn++) {
                boolean layerTurn = (round % 2 == 0) == (turn == 0);
                String url = "jdbc:h2:file:" + dir.resolve(UUID.randomUUID().toString()).toAbsolutePath() + ";WRITE_DELAY=0";
                UUID[] devices = createSchemaAndDevices(url);
                double rowsPerSecond = layerTurn ? throughStorageLayer(url, devices, ROWS)
                        : timed(ROWS, () -> write(url, sql.historyInsertOnly(), devices, 0, 1, 1_700_000_000_000L, ROWS, BATCH));
                assertThat(storedRows(url)).as("rows stored with %s", url).isEqualTo(ROWS);
                if (round > 0) {
                    (layerTurn ? layer : alone).add(rowsPerSecond);
                }
            }
        }
        String table = String.format(Locale.ROOT, "history rows/s, WRITE_DELAY=0, median of 7 interleaved "
                + "rounds after one of warm-up (spread), %d cores%nH2 alone (raw JDBC, batches of %d)  %9.0f (%.2fx)%n"
                + "TimeseriesDao.save (the storage layer)  %9.0f (%.2fx)%nratio %.2f%n",
                Runtime.getRuntime().availableProcessors(), BATCH, median(alone), spread(alone),
                median(layer), spread(layer), median(layer) / median(alone));
        log.info("{}{}", System.lineSeparator(), table);
        Files.writeString(Path.of("target", "h2-storage-layer.txt"), table);
    }

    /**
     * H2 alone beside a busy core: H2 alone in its JVM ({@link H2HistoryRows.InOwnJvm}, the app's heap flags, the
     * database kept open, 5 rounds of warm-up), then 8 rounds of three turns of 400,000 rows each: the other core idle,
     * the other core busy with arithmetic in registers, and busy with allocation and memory reads ({@link BusyCore});
     * the turns' order rotates from round to round. Each turn starts after the same short pause (the busy JVM's start,
     * or as long without one): a script outside the project measured H2 alone about 7% slower in a round that
     * followed 6 s of idleness than in one right after the last (BENCHMARKS.md). With {@code taskset} (Linux) H2's JVM
     * is kept on CPU 1 and the busy JVM on CPU 0. The ratios are what a busy neighbouring core costs one writer on this
     * machine. Medians with spreads; the table goes to {@code target/h2-beside-a-busy-core.txt}.
     */
    @Test
    void h2AloneBesideABusyCore() throws Exception {
        boolean pin = Runtime.getRuntime().availableProcessors() >= 2 && Files.isExecutable(Path.of("/usr/bin/taskset"));
        List<String> turns = List.of("idle", "registers", "memory");
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        turns.forEach(turn -> rates.put(turn, new ArrayList<>()));
        try (H2HistoryRows.InOwnJvm h2 = new H2HistoryRows.InOwnJvm(dir, ROWS, "512m",
                pin ? List.of("/usr/bin/taskset", "-c", "1") : List.of())) {
            for (int warmUp = 0; warmUp < 5; warmUp++) {
                h2.round();
            }
            for (int round = 0; round < 8; round++) {
                for (int t = 0; t < turns.size(); t++) {
                    String turn = turns.get((round + t) % turns.size());
                    long pauseStarted = System.nanoTime();
                    Process neighbour = turn.equals("idle") ? null
                            : BusyCore.start(pin ? List.of("/usr/bin/taskset", "-c", "0") : List.of(), turn);
                    if (neighbour == null) {
                        // as long as a busy JVM takes to start and announce itself
                        Thread.sleep(1500);
                    }
                    log.info("turn {} after a pause of {} ms", turn, (System.nanoTime() - pauseStarted) / 1_000_000);
                    try {
                        rates.get(turn).add(h2.round());
                    } finally {
                        if (neighbour != null) {
                            neighbour.destroyForcibly().waitFor();
                        }
                    }
                }
            }
        }
        rates.values().forEach(list -> assertThat(list).hasSize(8).allMatch(rate -> rate > 0));
        List<Double> idle = rates.get("idle");
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "H2 alone, one writer, rows/s, median of 8 "
                + "rounds of three interleaved turns (spread), %d cores, %s%n", Runtime.getRuntime().availableProcessors(),
                pin ? "H2 on CPU 1 and the busy JVM on CPU 0 (taskset)" : "not pinned (no taskset)"));
        for (String turn : turns) {
            List<Double> list = rates.get(turn);
            table.append(String.format(Locale.ROOT, "the other core %-9s %9.0f (%.2fx)  / idle %.3f  (per round: %s)%n",
                    turn, median(list), spread(list), median(list) / median(idle), roundRatios(list, idle)));
        }
        log.info("{}{}", System.lineSeparator(), table);
        Files.writeString(Path.of("target", "h2-beside-a-busy-core.txt"), table);
    }

    private static String roundRatios(List<Double> rates, List<Double> idle) {
        List<String> ratios = new ArrayList<>();
        for (int i = 0; i < rates.size(); i++) {
            ratios.add(String.format(Locale.ROOT, "%.2f", rates.get(i) / idle.get(i)));
        }
        return String.join(" ", ratios);
    }

    private static double timed(int rows, Callable<?> work) throws Exception {
        long started = System.nanoTime();
        work.call();
        return rows / ((System.nanoTime() - started) / 1e9);
    }

    private static double throughStorageLayer(String url, UUID[] devices, int rows) throws Exception {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(url);
        dataSource.setUsername("sa");
        dataSource.setPassword("");
        try (dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            KvWriteQueues queues = new KvWriteQueues(jdbc, new JdbcTransactionManager(dataSource), new SampleProperties());
            queues.start();
            TimeseriesDao dao = new TimeseriesDao(JdbcClient.create(jdbc), new KvCodec(JsonMapper.builder().build()), queues);
            Semaphore inFlight = new Semaphore(16_000);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long started = System.nanoTime();
            long ts = 1_700_000_000_000L;
            for (int i = 0; i < rows; i++) {
                inFlight.acquire();
                UUID device = devices[(i / 8000) % DEVICES];
                dao.save(device, ts++, Map.of("b", 1L)).whenComplete((done, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    }
                    inFlight.release();
                });
            }
            inFlight.acquire(16_000);
            double rowsPerSecond = rows / ((System.nanoTime() - started) / 1e9);
            queues.stop();
            assertThat(failure.get()).as("a save failed").isNull();
            return rowsPerSecond;
        }
    }

    private String measure(String name, String statement, int writers) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve(UUID.randomUUID().toString()).toAbsolutePath();
        UUID[] devices = createSchemaAndDevices(url);
        // held open across the rounds, so the file is not closed and opened again between them
        try (Connection keepOpen = DriverManager.getConnection(url, "sa", "")) {
            double rowsPerSecond = 0;
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            try {
                for (int round = 0; round < 2; round++) {
                    long started = System.nanoTime();
                    List<Future<Void>> done = new ArrayList<>();
                    for (int w = 0; w < writers; w++) {
                        int writer = w;
                        long firstTs = 1_700_000_000_000L + round * 10_000_000L;
                        // each writer its own connection and its own devices, as a writer per device partition would
                        done.add(pool.submit(() -> write(url, statement, devices, writer, writers, firstTs,
                                ROWS / writers, BATCH)));
                    }
                    for (Future<Void> writer : done) {
                        writer.get();
                    }
                    rowsPerSecond = ROWS / ((System.nanoTime() - started) / 1e9);
                }
            } finally {
                pool.shutdown();
            }
            assertThat(storedRows(url)).as("every row stored").isEqualTo(2L * ROWS);
            return String.format(Locale.ROOT, "%-24s %d writer(s) %9.0f rows/s", name, writers, rowsPerSecond);
        }
    }
}
