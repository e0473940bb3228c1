package io.tbactors.sample.iot.storage;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.flywaydb.core.Flyway;

/**
 * History rows written straight to an H2 file with JDBC, nothing of the app in between: what the database alone
 * stores. Shared by {@link H2HistoryCeilingBenchmark} and the end-to-end {@code DeviceApiBenchmark}, which measures it
 * in the same run as the bodies it compares with it.
 */
public final class H2HistoryRows {

    /** Devices in each database, the rows spread over them in bodies of 8,000. */
    public static final int DEVICES = 20;

    private H2HistoryRows() {
    }

    /**
     * H2 alone, one writer: {@code rows} history rows in batches of 1,000 (a transaction each) into a fresh file with
     * {@code WRITE_DELAY=0} (each commit written, as the app's database), {@code rounds} times after one round of
     * warm-up, each round into a file of its own.
     *
     * @param dir where the files go
     * @param rows rows a round
     * @param rounds rounds counted
     * @return rows/s of each counted round
     * @throws Exception when H2 fails, or a round stored another number of rows
     */
    public static List<Double> oneWriterRowsPerSecond(Path dir, int rows, int rounds) throws Exception {
        String insert = KvTableSql.forDatabase("H2").historyInsertOnly();
        List<Double> rates = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            String url = "jdbc:h2:file:" + dir.resolve(UUID.randomUUID().toString()).toAbsolutePath() + ";WRITE_DELAY=0";
            UUID[] devices = createSchemaAndDevices(url);
            long started = System.nanoTime();
            write(url, insert, devices, 0, 1, 1_700_000_000_000L, rows, 1000);
            double rate = rows / ((System.nanoTime() - started) / 1e9);
            long stored = storedRows(url);
            if (stored != rows) {
                throw new IllegalStateException("H2 stored " + stored + " of " + rows + " rows in " + url);
            }
            if (round > 0) {
                rates.add(rate);
            }
        }
        return rates;
    }

    static long storedRows(String url) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             var count = connection.createStatement().executeQuery("SELECT COUNT(*) FROM ts_kv")) {
            count.next();
            return count.getLong(1);
        }
    }

    public static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    public static double spread(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                / values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    static UUID[] createSchemaAndDevices(String url) throws Exception {
        Flyway.configure().dataSource(url, "sa", "").load().migrate();
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement insert = connection.prepareStatement("INSERT INTO device (id, tenant_id, name, type, "
                     + "access_token, created_time, version) VALUES (?, ?, ?, 't', ?, 0, 0)")) {
            UUID tenant = UUID.fromString("5a3c1e80-0000-4000-8000-000000000001");
            UUID[] devices = new UUID[DEVICES];
            for (int d = 0; d < DEVICES; d++) {
                devices[d] = UUID.randomUUID();
                insert.setObject(1, devices[d]);
                insert.setObject(2, tenant);
                insert.setString(3, "d" + d);
                insert.setString(4, "token-" + d);
                insert.executeUpdate();
            }
            return devices;
        }
    }

    static Void write(String url, String statement, UUID[] devices, int writer, int writers, long firstTs,
            int rows, int batch) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement write = connection.prepareStatement(statement)) {
            connection.setAutoCommit(false);
            long ts = firstTs;
            int mine = DEVICES / writers;
            for (int written = 0; written < rows; written += batch) {
                for (int i = 0; i < batch; i++) {
                    // bodies of 8,000 readings, device after device, each reading one row at a later time
                    UUID device = devices[writer + writers * (((written + i) / 8000) % mine)];
                    write.setObject(1, device);
                    write.setString(2, "b");
                    write.setLong(3, ts++);
                    write.setNull(4, Types.BOOLEAN);
                    write.setLong(5, 1);
                    write.setNull(6, Types.DOUBLE);
                    write.setNull(7, Types.VARCHAR);
                    write.setNull(8, Types.VARCHAR);
                    write.addBatch();
                }
                write.executeBatch();
                connection.commit();
            }
        }
        return null;
    }
}
